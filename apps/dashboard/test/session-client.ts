/** A minimal cookie-keeping form client for the dashboard, over real HTTP (no browser). */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  lastSetCookies: string[] = [];

  constructor(
    readonly base: string,
    readonly origin: string | null = base,
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keep(response: Response): void {
    this.lastSetCookies = response.headers.getSetCookie();
    for (const line of this.lastSetCookies) {
      const [pair] = line.split(";");
      const at = (pair ?? "").indexOf("=");
      const name = (pair ?? "").slice(0, at);
      const value = (pair ?? "").slice(at + 1);
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string): Promise<{ status: number; text: string; location: string | null }> {
    const response = await fetch(this.base + path, {
      headers: { cookie: this.cookieHeader() },
      redirect: "manual",
    });
    this.keep(response);
    return {
      status: response.status,
      text: await response.text(),
      location: response.headers.get("location"),
    };
  }

  async post(
    path: string,
    form: Record<string, string>,
  ): Promise<{ status: number; text: string; location: string | null }> {
    const headers: Record<string, string> = {
      cookie: this.cookieHeader(),
      "content-type": "application/x-www-form-urlencoded",
    };
    if (this.origin) headers.origin = this.origin;
    const response = await fetch(this.base + path, {
      method: "POST",
      headers,
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
    });
    this.keep(response);
    return {
      status: response.status,
      text: await response.text(),
      location: response.headers.get("location"),
    };
  }

  /** The CSRF token the signed-in pages carry in their forms. */
  async csrf(): Promise<string> {
    const page = await this.get("/dashboard/keys");
    const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!match?.[1]) throw new Error(`no CSRF token on the keys page (status ${page.status})`);
    return match[1];
  }

  /** Open a set-password link and set the password; the client is signed in after. */
  async acceptInvite(url: string, password: string, email?: string) {
    const path = new URL(url).pathname;
    return this.post(path, { password, confirm: password, ...(email ? { email } : {}) });
  }
}

export const PASSWORD = "correct horse battery staple";

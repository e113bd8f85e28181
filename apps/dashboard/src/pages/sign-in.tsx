/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { type Workspace, workspaceLabel } from "@svc/records";
import { Page, Problem, type Viewer } from "./layout.js";

export function SignInPage(props: { problem?: string; email?: string }) {
  return (
    <Page title="Sign in">
      {props.problem ? <Problem text={props.problem} /> : null}
      <form method="post" action="/dashboard/sign-in">
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={props.email ?? ""}
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      <p>New users sign in through the one-time link an operator gives them.</p>
    </Page>
  );
}

export function SetPasswordPage(props: {
  action: string;
  email: string | null;
  role: string;
  workspace: Workspace;
  problem?: string;
}) {
  return (
    <Page title="Set your password">
      <p>
        You are joining {workspaceLabel(props.workspace)} as {props.role}. This link works once.
      </p>
      {props.problem ? <Problem text={props.problem} /> : null}
      <form method="post" action={props.action}>
        {props.email ? (
          <p>
            Email: <strong>{props.email}</strong>
          </p>
        ) : (
          <>
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="username" required />
          </>
        )}
        <label for="password">New password (at least 12 characters)</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minlength={12}
          required
        />
        <label for="confirm">Repeat the password</label>
        <input
          id="confirm"
          name="confirm"
          type="password"
          autocomplete="new-password"
          minlength={12}
          required
        />
        <p>
          <button type="submit">Set password and sign in</button>
        </p>
      </form>
    </Page>
  );
}

/**
 * Refusals: 403 (a viewer's change, a failed CSRF check), 404, 410 (a used link), 400, 429. A
 * signed-in user keeps the menu and Sign out, as on every other page.
 */
export function ProblemPage(props: { title: string; text: string; back?: string; viewer?: Viewer }) {
  return (
    <Page title={props.title} viewer={props.viewer}>
      <Problem text={props.text} />
      {props.back ? (
        <p>
          <a href={props.back}>Back</a>
        </p>
      ) : null}
    </Page>
  );
}

/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { Csrf, Notice, Page, Problem, type Viewer } from "./layout.js";

function CodeField(props: { label: string }) {
  return (
    <>
      <label for="code">{props.label}</label>
      <input
        id="code"
        name="code"
        type="text"
        inputmode="text"
        autocomplete="one-time-code"
        required
        maxlength={32}
      />
    </>
  );
}

/** The sign-in step after a correct password, for users with a second factor. */
export function SignInCodePage(props: { problem?: string }) {
  return (
    <Page title="Two-factor code">
      {props.problem ? <Problem text={props.problem} /> : null}
      <form method="post" action="/dashboard/sign-in/code">
        <CodeField label="The 6-digit code from your authenticator app, or one of your backup codes" />
        <p>
          <button type="submit">Verify</button>
        </p>
      </form>
      <p>
        <a href="/dashboard/sign-in">Start again</a>
      </p>
    </Page>
  );
}

function PasswordField() {
  return (
    <>
      <label for="password">Your password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required />
    </>
  );
}

/** Security: turn the TOTP second factor on (password, then a code) or off (password). */
export function SecurityPage(props: { viewer: Viewer; twoFactorEnabled: boolean; notice?: string }) {
  return (
    <Page title="Security" viewer={props.viewer} section="security">
      <Notice text={props.notice} />
      <p data-testid="two-factor-status">
        Two-factor sign-in is <strong>{props.twoFactorEnabled ? "on" : "off"}</strong>.
      </p>
      {props.twoFactorEnabled ? (
        <form method="post" action="/dashboard/security/disable">
          <h2>Turn two-factor sign-in off</h2>
          <Csrf viewer={props.viewer} />
          <PasswordField />
          <p>
            <button type="submit">Turn off</button>
          </p>
        </form>
      ) : (
        <form method="post" action="/dashboard/security/enable">
          <h2>Turn two-factor sign-in on</h2>
          <p>After your password you will enter a code from an authenticator app (TOTP, RFC 6238).</p>
          <Csrf viewer={props.viewer} />
          <PasswordField />
          <p>
            <button type="submit">Set up an authenticator app</button>
          </p>
        </form>
      )}
    </Page>
  );
}

/** The secret (shown this once), the backup codes, and the code that confirms the app works. */
export function TwoFactorSetupPage(props: {
  viewer: Viewer;
  secret: string;
  uri: string;
  backupCodes: string[];
  problem?: string;
}) {
  return (
    <Page title="Set up an authenticator app" viewer={props.viewer} section="security">
      {props.problem ? <Problem text={props.problem} /> : null}
      <p>Add this key to your authenticator app (time-based, 6 digits, 30 seconds). It is shown this once.</p>
      <code class="secret" data-testid="totp-secret">
        {props.secret}
      </code>
      <p>
        Or open this link on the device with the app: <code class="origins">{props.uri}</code>
      </p>
      <h2>Backup codes</h2>
      <p>Each works once instead of a code, if you lose the app. Store them now.</p>
      <ul data-testid="backup-codes">
        {props.backupCodes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <form method="post" action="/dashboard/security/confirm">
        <h2>Confirm</h2>
        <Csrf viewer={props.viewer} />
        <CodeField label="The 6-digit code your app shows now" />
        <p>
          <button type="submit">Turn on</button>
        </p>
      </form>
    </Page>
  );
}

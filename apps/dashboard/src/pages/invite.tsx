/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { type Workspace, workspaceLabel } from "@svc/records";
import { Page, Problem } from "./layout.js";

/**
 * An invitation for an email that already signs in to this dashboard: its holder joins by
 * entering that sign-in's current password (a link never replaces someone's password unless the
 * operator made it). Nothing here says where else the email works.
 */
export function JoinPage(props: {
  action: string;
  email: string;
  /** The link had no email: the one entered is carried along. */
  emailField: boolean;
  role: string;
  workspace: Workspace;
  problem?: string;
}) {
  return (
    <Page title="Join with your sign-in">
      <p>
        You are joining {workspaceLabel(props.workspace)} as {props.role}. This link works once.
      </p>
      {props.problem ? <Problem text={props.problem} /> : null}
      <form method="post" action={props.action}>
        <p>
          Email: <strong>{props.email}</strong>
        </p>
        {props.emailField ? <input type="hidden" name="email" value={props.email} /> : null}
        <p>This email already signs in to this dashboard. Enter its password to join.</p>
        <label for="password">Your password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <p>
          <button type="submit">Join and sign in</button>
        </p>
      </form>
      <p>If you do not know this sign-in's password, ask your operator for a new link.</p>
    </Page>
  );
}

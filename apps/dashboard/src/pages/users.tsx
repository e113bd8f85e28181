/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { DASHBOARD_ROLES } from "@svc/db";
import type { listWorkspaceUsers } from "@svc/records";
import { ActionButton, Csrf, Notice, Page, type Viewer, when } from "./layout.js";

type Users = Awaited<ReturnType<typeof listWorkspaceUsers>>;

function RoleForm(props: { viewer: Viewer; userId: string; email: string; role: string }) {
  const id = `role-${props.userId}`;
  return (
    <form method="post" action={`/dashboard/users/${props.userId}/role`} class="inline">
      <Csrf viewer={props.viewer} />
      <label for={id} class="sr-only">
        Role of {props.email}
      </label>
      <select id={id} name="role">
        {DASHBOARD_ROLES.map((role) => (
          <option value={role} selected={role === props.role}>
            {role}
          </option>
        ))}
      </select>{" "}
      <button type="submit">
        Change role<span class="sr-only"> of {props.email}</span>
      </button>
    </form>
  );
}

export function UsersPage(props: { viewer: Viewer; users: Users; notice?: string | undefined }) {
  const isOwner = props.viewer.role === "owner";
  return (
    <Page title="Users" viewer={props.viewer} section="users">
      <Notice text={props.notice} />
      <table>
        <caption>Dashboard users of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Since</th>
            {isOwner ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.users.users.map((user) => (
            <tr>
              <td>{user.email}</td>
              <td>{user.role}</td>
              <td>{when(user.createdAt)}</td>
              {isOwner ? (
                <td>
                  <RoleForm viewer={props.viewer} userId={user.userId} email={user.email} role={user.role} />{" "}
                  <ActionButton
                    viewer={props.viewer}
                    action={`/dashboard/users/${user.userId}/remove`}
                    label="Remove"
                    target={user.email}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Open invitations</h2>
      <ul>
        {props.users.invites.map((invite) => (
          <li>{`${invite.email ?? "(email chosen on the form)"} as ${invite.role}, until ${when(invite.expiresAt)}`}</li>
        ))}
      </ul>
      {isOwner ? (
        <form method="post" action="/dashboard/users">
          <h2>Invite a user</h2>
          <Csrf viewer={props.viewer} />
          <label for="invite-email">Email</label>
          <input id="invite-email" name="email" type="email" required />
          <label for="invite-role">Role</label>
          <select id="invite-role" name="role">
            {DASHBOARD_ROLES.map((role) => (
              <option value={role} selected={role === "developer"}>
                {role}
              </option>
            ))}
          </select>
          <p>
            <button type="submit">Create one-time link</button>
          </p>
        </form>
      ) : (
        <p>Only owners invite users and change roles.</p>
      )}
    </Page>
  );
}

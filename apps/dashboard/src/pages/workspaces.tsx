/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { workspaceIdOf } from "@svc/records";
import type { Viewer } from "./layout.js";

/**
 * The workspace switcher in the header, for a user who works in more than one workspace: a plain
 * form (no scripts) that posts the chosen workspace; the server checks the membership.
 */
export function WorkspaceSwitcher(props: { viewer: Viewer }) {
  const choices = props.viewer.workspaces ?? [];
  if (choices.length < 2) return null;
  const active = workspaceIdOf(props.viewer.workspace);
  return (
    <form method="post" action="/dashboard/workspace" class="inline">
      <input type="hidden" name="_csrf" value={props.viewer.csrf} />
      <label for="workspace-switch" class="sr-only">
        Workspace
      </label>
      <select id="workspace-switch" name="workspace">
        {choices.map((choice) => (
          <option value={choice.id} selected={choice.id === active}>
            {`${choice.name} (${choice.organization ? "organization" : "account"}, ${choice.role})`}
          </option>
        ))}
      </select>{" "}
      <button type="submit">Switch workspace</button>
    </form>
  );
}

/** The dashboard's one stylesheet, served from our origin (the CSP allows no inline styles). */
export const DASHBOARD_CSS = `
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1b1b1b; background: #fff; }
body { margin: 0; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .75rem 1.5rem; background: #12355b; color: #fff; }
header a { color: #fff; }
header a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.brand { font-weight: 700; margin: 0; }
nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.who { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
main { padding: 1rem 1.5rem 3rem; max-width: 78rem; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; color: #000; padding: .5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #c8c8c8; vertical-align: top; }
code, pre { font-family: ui-monospace, monospace; }
pre { white-space: pre-wrap; word-break: break-all; background: #f3f3f3; padding: .5rem; }
.secret { font-size: 1.1rem; background: #fff4c2; padding: .5rem; display: block; word-break: break-all; }
.notice { background: #e2f4e4; border-left: 4px solid #1e7a2e; padding: .5rem; }
.problem { background: #fde7e7; border-left: 4px solid #b00020; padding: .5rem; }
.inline { display: inline; }
.modes { display: grid; grid-template-columns: repeat(auto-fit, minmax(34rem, 1fr)); gap: 1.5rem; }
.modes > section { min-width: 0; overflow-x: auto; }
.modes.stacked { grid-template-columns: 1fr; }
.origins { overflow-wrap: anywhere; }
.empty { color: #3d3d3d; font-style: italic; }
table.audit { table-layout: fixed; }
table.audit th:nth-child(1) { width: 12rem; }
table.audit th:nth-child(2) { width: 14rem; }
table.audit th:nth-child(3) { width: 14rem; }
table.audit th:nth-child(4) { width: 14rem; }
table.audit td { overflow-wrap: anywhere; }
.detail { list-style: none; margin: 0; padding: 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
label { display: block; margin: .5rem 0 .2rem; font-weight: 600; }
input[type="text"], input[type="email"], input[type="password"], input[type="url"], textarea, select { font: inherit; padding: .3rem; min-width: 20rem; }
figure { margin: 1rem 0; }
.legend { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; }
fieldset { border: 1px solid #c8c8c8; margin: .5rem 0; }
label.check { display: inline-block; font-weight: 400; margin-right: 1rem; }
button { font: inherit; padding: .3rem .8rem; cursor: pointer; }
`;

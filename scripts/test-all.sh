#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine, then runs every test (scripts/test.mjs).
# Needs: Node 20+, npm; root (or sudo) for apt-get when Chromium or PostgreSQL is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# Chromium for Playwright (Debian's package: `npx playwright install` needs the internet).
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || apt_install chromium

# PostgreSQL on 127.0.0.1:5432 with trust auth for the PostgreSQL-mode tests.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  version=$(ls /etc/postgresql | sort -V | tail -1)
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
export TEST_PG_URL="${TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
node scripts/test.mjs

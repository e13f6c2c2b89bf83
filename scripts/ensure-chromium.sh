#!/bin/sh
# ensure-chromium: makes Debian's chromium available to the browser suites and prints its path (one line on stdout;
# what it does goes to stderr). `pnpm test` runs it first and exports CHROMIUM_PATH for every package's suite.
#
# 1. CHROMIUM_PATH when set (it must be executable), else /usr/bin/chromium when installed: that path, nothing else.
# 2. As root, or with sudo that asks no password: `apt-get install chromium`, once, system-wide.
# 3. Otherwise: Debian's chromium and chromium-common packages and the libraries this machine lacks for them (what
#    `apt-get install --no-install-recommends chromium` would install, from apt's own simulation) are fetched with
#    `apt-get download` and unpacked with `dpkg -x` into $PNPMW_CACHE/chromium-<version> (default
#    ~/.cache/partner-platform), once, beside a launcher `chromium` that puts their libraries on LD_LIBRARY_PATH.
# Browsers come only from Debian's packages here, never from a browser's own download site.
set -eu

say() { printf 'ensure-chromium: %s\n' "$*" >&2; }
fail() {
  say "$*"
  say "install Debian's chromium once with \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH to a chromium), then run the tests again"
  exit 1
}

if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -f "$CHROMIUM_PATH" ] && [ -x "$CHROMIUM_PATH" ] || fail "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file"
  echo "$CHROMIUM_PATH"
  exit 0
fi
SYSTEM=${ENSURE_CHROMIUM_SYSTEM:-/usr/bin/chromium} # the tests point it at a path that does not exist
if [ -x "$SYSTEM" ]; then
  echo "$SYSTEM"
  exit 0
fi
export LC_ALL=C # apt's output is parsed below

apt_install() {
  say "chromium is not installed: installing Debian's chromium with apt-get${1:+ (through sudo)}"
  $1 apt-get update -qq >&2 &&
    $1 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2 ||
    fail "apt-get install chromium failed (above)"
  [ -x "$SYSTEM" ] || fail "apt-get installed chromium, yet there is no $SYSTEM"
  echo "$SYSTEM"
  exit 0
}
if [ "$(id -u)" = 0 ]; then apt_install ""; fi
if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then apt_install "sudo -n"; fi

# No root: what apt would install, unpacked in a folder of this user's.
if [ -z "${HOME:-}" ] && [ -z "${PNPMW_CACHE:-}" ]; then fail "HOME is not set: set it, or PNPMW_CACHE to a folder for chromium"; fi
CACHE=${PNPMW_CACHE:-$HOME/.cache/partner-platform}
PLAN=$(apt-get -s install --no-install-recommends chromium 2>&1) ||
  fail "apt cannot plan chromium's installation on this machine (are its package lists empty? \`sudo apt-get update\`): $(printf '%s\n' "$PLAN" | grep '^E:' | head -n 3)"
# "Inst libfoo1 [old] (1.2-3 Debian:12/stable [amd64])": the package and the version it would get.
PACKAGES=$(printf '%s\n' "$PLAN" | sed -n 's/^Inst \([^ ]*\) .*/\1/p')
VERSION=$(printf '%s\n' "$PLAN" | sed -n 's/^Inst chromium \(\[[^]]*\] \)\{0,1\}(\([^ ]*\) .*/\2/p')
[ -n "$VERSION" ] || fail "apt knows no chromium package to install (its package lists may be empty: \`sudo apt-get update\`)"
DIR=$CACHE/chromium-$VERSION
if [ -x "$DIR/chromium" ]; then
  echo "$DIR/chromium"
  exit 0
fi

say "no chromium on this machine and no root: downloading Debian's chromium $VERSION and what it needs that this machine lacks ($(echo $PACKAGES | wc -w) packages) with apt-get download, unpacking them without installing (once; cached in $DIR)"
mkdir -p "$CACHE"
# Into a folder of its own first, then renamed: a second run meanwhile never sees half a chromium.
PART=$(mktemp -d "$CACHE/.chromium-$VERSION.XXXXXX")
trap 'rm -rf "$PART"' EXIT
trap 'exit 130' INT TERM
mkdir "$PART/debs"
# shellcheck disable=SC2086 # one word per package
(cd "$PART/debs" && apt-get download -qq $PACKAGES >&2) || fail "apt-get download failed (above)"
for deb in "$PART"/debs/*.deb; do dpkg -x "$deb" "$PART/root" || fail "dpkg -x $deb failed"; done
rm -rf "$PART/debs"

# Every folder with a shared library, but chromium's own (it finds those beside itself), relative to the launcher.
LIBS=$(cd "$PART/root" && find . \( -type f -o -type l \) -name 'lib*.so*' ! -path './usr/lib/chromium/*' | sed 's|^\./\(.*\)/[^/]*$|$HERE/root/\1|' | sort -u | paste -sd: -)
# What Debian's /usr/bin/chromium does that matters here (its CHROME_WRAPPER and CHROME_DESKTOP, and its default flags
# and /dev/shm check from /etc/chromium.d), with the unpacked libraries first.
cat >"$PART/chromium" <<EOF
#!/bin/sh
# Debian's chromium $VERSION unpacked without root by scripts/ensure-chromium.sh, launched as /usr/bin/chromium would.
HERE=\$(dirname "\$(readlink -f "\$0")")
export LD_LIBRARY_PATH="$LIBS\${LD_LIBRARY_PATH:+${LIBS:+:}\$LD_LIBRARY_PATH}"
export CHROME_WRAPPER="\${CHROME_WRAPPER:-\$HERE/chromium}" CHROME_DESKTOP=chromium.desktop
CHROMIUM_FLAGS=
for file in "\$HERE/root/etc/chromium.d/default-flags" "\$HERE/root/etc/chromium.d/dev-shm"; do
  if [ -f "\$file" ]; then . "\$file" 2>/dev/null; fi
done
# shellcheck disable=SC2086 # one word per flag
exec "\$HERE/root/usr/lib/chromium/chromium" \$CHROMIUM_FLAGS "\$@"
EOF
chmod 755 "$PART/chromium"

# Proof that it starts: the empty page's DOM, headless.
PROBE=$(timeout 120 "$PART/chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$PART/probe-profile" --dump-dom about:blank 2>"$PART/probe.log") || true
case $PROBE in
  *'<body'*) ;;
  *) fail "the unpacked chromium did not start headless: $(tail -n 5 "$PART/probe.log")" ;;
esac
rm -rf "$PART/probe-profile" "$PART/probe.log"

if [ ! -x "$DIR/chromium" ]; then
  rm -rf "$DIR" # what an interrupted run by hand may have left
  mv "$PART" "$DIR"
fi
echo "$DIR/chromium"

/**
 * scripts/ensure-chromium.sh, which `pnpm test` runs first so the browser suites find a chromium on any Debian machine.
 * Nothing is downloaded or installed: `id`, `sudo`, `apt-get` and `dpkg` are stand-ins on PATH that log their arguments
 * (apt-get's plan and .debs, dpkg's unpacked tree and its `chromium` are small fakes), and the system chromium it looks
 * for is a path of the test's (ENSURE_CHROMIUM_SYSTEM), absent unless a case makes it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/ensure-chromium.sh');
const VERSION = '150.0.1-1~deb12u1';
const ADVICE = "ensure-chromium: install Debian's chromium once with `sudo apt-get install -y chromium` (or set CHROMIUM_PATH to a chromium), then run the tests again";

/** What `apt-get -s install --no-install-recommends chromium` prints: two missing libraries (one an upgrade) and chromium. */
const PLAN = `NOTE: This is only a simulation!
Reading package lists...
The following NEW packages will be installed:
  chromium chromium-common libfoo1
Inst libfoo1 (1.0-1 Debian:12/stable [amd64])
Inst libbar2 [2.0-1] (2.1-1 Debian:12/stable [amd64])
Inst chromium-common (${VERSION} Debian-Security:12/stable-security [amd64])
Inst chromium (${VERSION} Debian-Security:12/stable-security [amd64])
Conf libfoo1 (1.0-1 Debian:12/stable [amd64])`;

const STUBS: Record<string, string> = {
  id: `#!/bin/sh\necho "$FAKE_UID"\n`,
  sudo: `#!/bin/sh
echo "sudo $*" >> "$STUB_LOG"
[ -n "$SUDO_WORKS" ] || { echo 'sudo: a password is required' >&2; exit 1; }
[ "$1" = -n ] && shift
exec "$@"
`,
  'apt-get': `#!/bin/sh
echo "apt-get $*\${DEBIAN_FRONTEND:+ (DEBIAN_FRONTEND=$DEBIAN_FRONTEND)}" >> "$STUB_LOG"
case " $* " in
  *" -s install "*) [ -z "$NO_CANDIDATE" ] || { echo 'E: Unable to locate package chromium'; exit 100; }; cat <<'PLAN'
${PLAN}
PLAN
  ;;
  *" install "*) printf '#!/bin/sh\\n' > "$ENSURE_CHROMIUM_SYSTEM" && chmod 755 "$ENSURE_CHROMIUM_SYSTEM" ;;
  *" download "*) [ -z "$DOWNLOAD_FAILS" ] || { echo 'E: Failed to fetch chromium' >&2; exit 100; }
    for arg; do case $arg in -*|download) ;; *) echo "$arg" > "\${arg}_1_amd64.deb" ;; esac; done ;;
esac
`,
  dpkg: `#!/bin/sh
[ "$1" = -x ] || exit 2
pkg=$(cat "$2")
case $pkg in
  chromium) mkdir -p "$3/usr/lib/chromium" && cp "$FAKE_CHROMIUM" "$3/usr/lib/chromium/chromium" ;;
  chromium-common) mkdir -p "$3/etc/chromium.d" && echo 'export CHROMIUM_FLAGS="$CHROMIUM_FLAGS --no-default-browser-check"' > "$3/etc/chromium.d/default-flags" ;;
  *) mkdir -p "$3/usr/lib/x86_64-linux-gnu" && : > "$3/usr/lib/x86_64-linux-gnu/$pkg.so.1" ;;
esac
`,
};

/** The unpacked browser: the empty page's DOM for the script's headless probe, else what it was started with. */
const FAKE_CHROMIUM = `#!/bin/sh
case " $* " in
  *" --dump-dom "*) [ -z "$CHROMIUM_BROKEN" ] || { echo 'chromium: error while loading shared libraries: libfoo1.so.1' >&2; exit 127; }
    echo '<html><head></head><body></body></html>'; exit 0 ;;
esac
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
echo "CHROME_WRAPPER=$CHROME_WRAPPER"
echo "args=$*"
`;

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A machine without chromium: a home, the stand-ins first on PATH, their log. */
function machine(env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ensure-chromium-'));
  made.push(dir);
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  for (const [name, text] of Object.entries(STUBS)) writeFileSync(path.join(bin, name), text, { mode: 0o755 });
  writeFileSync(path.join(dir, 'fake-chromium'), FAKE_CHROMIUM, { mode: 0o755 });
  const home = path.join(dir, 'home');
  mkdirSync(home);
  const log = path.join(dir, 'calls.log');
  writeFileSync(log, '');
  const fullEnv: Record<string, string> = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: home,
    FAKE_UID: '1000',
    STUB_LOG: log,
    FAKE_CHROMIUM: path.join(dir, 'fake-chromium'),
    ENSURE_CHROMIUM_SYSTEM: path.join(dir, 'usr-bin-chromium'),
    ...env,
  };
  return {
    dir,
    home,
    env: fullEnv,
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    run: (extra: Record<string, string> = {}) => {
      const result = spawnSync('sh', [SCRIPT], { env: { ...fullEnv, ...extra }, encoding: 'utf8', timeout: 60_000 });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
  };
}

describe('scripts/ensure-chromium.sh', () => {
  it('prints CHROMIUM_PATH when it is an executable, and asks apt and sudo nothing', () => {
    const m = machine();
    const browser = path.join(m.dir, 'my-chromium');
    writeFileSync(browser, '#!/bin/sh\n', { mode: 0o755 });
    expect(m.run({ CHROMIUM_PATH: browser })).toEqual({ status: 0, stdout: `${browser}\n`, stderr: '' });
    expect(m.calls()).toEqual([]);
  });

  it('stops on a CHROMIUM_PATH that is not an executable, saying what to do', () => {
    const m = machine();
    const result = m.run({ CHROMIUM_PATH: path.join(m.dir, 'nowhere') });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([`ensure-chromium: CHROMIUM_PATH=${path.join(m.dir, 'nowhere')} is not an executable file`, ADVICE]);
    expect(m.calls()).toEqual([]);
  });

  it('prints the installed /usr/bin/chromium, and asks apt and sudo nothing', () => {
    const m = machine();
    writeFileSync(m.env.ENSURE_CHROMIUM_SYSTEM!, '#!/bin/sh\n', { mode: 0o755 });
    expect(m.run()).toEqual({ status: 0, stdout: `${m.env.ENSURE_CHROMIUM_SYSTEM}\n`, stderr: '' });
    expect(m.calls()).toEqual([]);
  });

  it('installs chromium with apt-get as root, saying so in one line, and prints /usr/bin/chromium', () => {
    const m = machine({ FAKE_UID: '0' });
    const result = m.run();
    expect(result).toEqual({ status: 0, stdout: `${m.env.ENSURE_CHROMIUM_SYSTEM}\n`, stderr: "ensure-chromium: chromium is not installed: installing Debian's chromium with apt-get\n" });
    expect(m.calls()).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium (DEBIAN_FRONTEND=noninteractive)']);
  });

  it('installs chromium with sudo when sudo asks no password', () => {
    const m = machine({ SUDO_WORKS: '1' });
    const result = m.run();
    expect(result).toEqual({ status: 0, stdout: `${m.env.ENSURE_CHROMIUM_SYSTEM}\n`, stderr: "ensure-chromium: chromium is not installed: installing Debian's chromium with apt-get (through sudo)\n" });
    expect(m.calls()).toEqual([
      'sudo -n true',
      'sudo -n apt-get update -qq',
      'apt-get update -qq',
      'sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
      'apt-get install -y -qq chromium (DEBIAN_FRONTEND=noninteractive)',
    ]);
  });

  it('without root or sudo, downloads what apt would install, unpacks it into the cache beside a launcher, once', () => {
    const m = machine();
    const dir = path.join(m.home, '.cache', 'partner-platform', `chromium-${VERSION}`);
    const first = m.run();
    expect(first).toEqual({
      status: 0,
      stdout: `${dir}/chromium\n`,
      stderr: `ensure-chromium: no chromium on this machine and no root: downloading Debian's chromium ${VERSION} and what it needs that this machine lacks (4 packages) with apt-get download, unpacking them without installing (once; cached in ${dir})\n`,
    });
    expect(m.calls()).toEqual(['sudo -n true', 'apt-get -s install --no-install-recommends chromium', 'apt-get download -qq libfoo1 libbar2 chromium-common chromium']);
    // Renamed into place whole; the .debs are gone.
    expect(readdirSync(path.dirname(dir))).toEqual([`chromium-${VERSION}`]);
    expect(readdirSync(dir).sort()).toEqual(['chromium', 'root']);

    // The launcher: the unpacked libraries first, Debian's default flags, the wrapper as CHROME_WRAPPER.
    const launched = spawnSync(`${dir}/chromium`, ['--headless'], { env: { PATH: '/usr/bin:/bin', LD_LIBRARY_PATH: '/opt/mine' }, encoding: 'utf8' });
    expect(launched.stdout.trim().split('\n')).toEqual([
      `LD_LIBRARY_PATH=${dir}/root/usr/lib/x86_64-linux-gnu:/opt/mine`,
      `CHROME_WRAPPER=${dir}/chromium`,
      'args=--no-default-browser-check --headless',
    ]);

    // The next run finds it: apt only plans, nothing is downloaded.
    expect(m.run()).toEqual({ status: 0, stdout: `${dir}/chromium\n`, stderr: '' });
    expect(m.calls().slice(3)).toEqual(['sudo -n true', 'apt-get -s install --no-install-recommends chromium']);
  });

  it('keeps nothing and says what to do when the download fails, or the unpacked chromium does not start', () => {
    for (const failure of [{ DOWNLOAD_FAILS: '1' }, { CHROMIUM_BROKEN: '1' }] as Record<string, string>[]) {
      const m = machine(failure);
      const result = m.run({ PNPMW_CACHE: path.join(m.dir, 'cache') });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trim().split('\n');
      expect(lines.at(-2)).toMatch(failure.DOWNLOAD_FAILS ? /^ensure-chromium: apt-get download failed \(above\)$/ : /^ensure-chromium: the unpacked chromium did not start headless: .*error while loading shared libraries/);
      expect(lines.at(-1)).toBe(ADVICE);
      expect(readdirSync(path.join(m.dir, 'cache'))).toEqual([]);
    }
  });

  it('says what to do when apt knows no chromium package', () => {
    const m = machine({ NO_CANDIDATE: '1' });
    const result = m.run();
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual(["ensure-chromium: apt cannot plan chromium's installation on this machine (are its package lists empty? `sudo apt-get update`): E: Unable to locate package chromium", ADVICE]);
    expect(existsSync(path.join(m.home, '.cache'))).toBe(false);
  });
});

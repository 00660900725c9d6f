#!/usr/bin/env bash
# The Raspberry Pi install path, checked on Debian bookworm arm64 emulated on this machine.
#
# Builds an arm64 Debian bookworm root with mmdebstrap, runs it under qemu-user-static, and inside
# it follows the README's "Install on a Raspberry Pi": a clone, `deploy/install.sh`, then
# `sheshbesh demo --speed max --no-panel` (its final scores compared with the match file's) and a
# fast set of tests. Prints each step's result and time.
#
# Emulated times are NOT Raspberry Pi times: qemu translates every arm64 instruction, about ten
# times slower than native here. What this proves is that the install path and the program work on
# arm64 with Debian's Python 3.11 and the arm64 wheels pip picks; benchmarks/pi_estimate.py
# estimates speed on a Pi.
#
# Plain Debian lacks the two Raspberry Pi OS packages the installer takes when they exist
# (python3-lgpio, python3-picamera2), so here it takes the other branch: GPIO pins and the Pi camera
# are reported absent, and the USB camera, the serial LED controller and the fakes remain.
#
#   sudo scripts/arm64-check.sh                 # build, check, remove the root (~20 min)
#   sudo scripts/arm64-check.sh --keep          # keep the fresh root's tarball for --reuse
#   sudo scripts/arm64-check.sh --reuse         # start again from that tarball (no mmdebstrap)
#   sudo scripts/arm64-check.sh --tests 'tests/rules -m "not slow"'   # other tests
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: sudo scripts/arm64-check.sh [--root DIR] [--keep] [--reuse] [--rev REV] [--tests ARGS]
                                   [--no-demo]

  --root DIR    where the arm64 root is unpacked (default /var/tmp/sheshbesh-arm64); the fresh
                root's tarball is DIR.tar
  --keep        keep DIR.tar (and DIR as the check left it) afterwards
  --reuse       start from DIR.tar, kept by an earlier --keep run, instead of mmdebstrap
  --rev REV     the commit to check (default HEAD; uncommitted changes are never checked)
  --tests ARGS  pytest arguments for the test step (default: a fast set, see FAST_TESTS)
  --no-demo     skip the demo (about 7 minutes emulated)
  -h, --help    show this help
EOF
}

# Fast tests that say most about arm64: OpenCV's arm64 build on real photos and markers, the frame
# sources, the LEDs, the data that travels with the clone. About 40 s native, 6 to 9 min emulated.
FAST_TESTS=(tests/test_test_data.py tests/test_foundation.py tests/vision/test_calibration.py
    tests/vision/test_markers.py tests/vision/test_dice_photos.py tests/vision/test_images.py
    tests/vision/test_sources.py tests/vision/test_sources_picamera.py tests/lights
    -m "not slow")

die() {
    printf 'arm64-check: error: %s\n' "$*" >&2
    exit 1
}

root=/var/tmp/sheshbesh-arm64
keep=0
reuse=0
demo=1
rev=HEAD
tests=()
while (($#)); do
    case $1 in
    --root)
        (($# >= 2)) || die "--root needs a folder"
        root=$2
        shift
        ;;
    --keep) keep=1 ;;
    --rev)
        (($# >= 2)) || die "--rev needs a commit"
        rev=$2
        shift
        ;;
    --reuse) reuse=1 ;;
    --no-demo) demo=0 ;;
    --tests)
        (($# >= 2)) || die "--tests needs pytest arguments"
        eval "tests=($2)"
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        usage >&2
        die "unknown option '$1'"
        ;;
    esac
    shift
done
((${#tests[@]})) || tests=("${FAST_TESTS[@]}")
((EUID == 0)) || die "run as root (mmdebstrap, binfmt_misc and chroot need it): sudo $0"
[[ $root == /* && $root != / ]] || die "--root must be an absolute folder, not '$root'"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

steps=()
record() { # STEP RESULT SECONDS
    steps+=("$(printf '%-10s %-6s %7.1f s' "$1" "$2" "$3")")
    printf '\n==> %s: %s in %.1f s\n' "$1" "$2" "$3"
}
now() { date +%s.%N; }
elapsed() { awk -v from="$1" -v to="$(now)" 'BEGIN { printf "%.1f", to - from }'; }
report() {
    printf '\narm64 check (Debian bookworm arm64 under qemu-user-static; EMULATED times, not Pi times)\n'
    printf '  %s\n' "${steps[@]}"
}

# Mounts made here, undone on exit (in reverse order) before anything is removed.
mounts=()
cleanup() {
    local index
    for ((index = ${#mounts[@]} - 1; index >= 0; index--)); do
        umount "${mounts[index]}" || umount -l "${mounts[index]}" || true
    done
    if ((!keep)) && [[ -d $root ]] && ! findmnt -rno TARGET | grep -q "^$root/"; then
        # --one-file-system: never descend into anything still mounted under the root.
        rm -rf --one-file-system "$root"
        rm -f "$root.tar"
    fi
}
trap cleanup EXIT
trap 'report; exit 130' INT TERM

in_root() { # COMMAND... : run inside the root as root, with a clean environment
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# --- host: emulation ---------------------------------------------------------------------------
start=$(now)
needed=()
command -v mmdebstrap >/dev/null || needed+=(mmdebstrap)
[[ -x /usr/bin/qemu-aarch64-static ]] || needed+=(qemu-user-static)
command -v update-binfmts >/dev/null || needed+=(binfmt-support)
if ((${#needed[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${needed[@]}" >/dev/null
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
    mount binfmt_misc -t binfmt_misc /proc/sys/fs/binfmt_misc ||
        die "binfmt_misc cannot be mounted here (a container without the privilege?)"
fi
update-binfmts --enable qemu-aarch64 2>/dev/null || true
[[ $(head -n 1 /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null) == enabled ]] ||
    die "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64)"
record host ok "$(elapsed "$start")"

# --- the arm64 root ------------------------------------------------------------------------------
start=$(now)
if ((reuse)); then
    [[ -f $root.tar ]] || die "--reuse: no $root.tar (run once with --keep first)"
    how=reused
else
    [[ ! -e $root.tar ]] || die "$root.tar exists: remove it, or pass --reuse to start from it"
    # Raspberry Pi OS Lite brings python3, systemd and udev; git is the README's first step.
    # python3-venv is left out: install.sh must add it.
    mmdebstrap --arch=arm64 --variant=apt --quiet \
        --include=python3,ca-certificates,git,passwd,systemd,udev \
        bookworm "$root.tar" http://deb.debian.org/debian
    how=built
fi
# Every check starts from the untouched root, so a rerun is a first install again.
if [[ -e $root ]]; then
    ! findmnt -rno TARGET | grep -q "^$root/" || die "something is still mounted under $root"
    rm -rf --one-file-system "$root"
fi
mkdir -p "$root"
tar -C "$root" --numeric-owner -xf "$root.tar"
record root "$how" "$(elapsed "$start")"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for fs in proc:proc sys:sysfs; do
    mountpoint -q "$root/${fs%%:*}" || {
        mount -t "${fs#*:}" "${fs#*:}" "$root/${fs%%:*}"
        mounts+=("$root/${fs%%:*}")
    }
done
# Certificate authorities added on this host (a proxy's, say) are trusted inside too, so that pip
# reaches the same servers from the root as from here.
shopt -s nullglob
local_cas=(/usr/local/share/ca-certificates/*.crt)
shopt -u nullglob
if ((${#local_cas[@]})); then
    cp "${local_cas[@]}" "$root/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >/dev/null 2>&1 || die "update-ca-certificates failed in $root"
fi
machine=$(in_root uname -m)
python=$(in_root python3 --version)
[[ $machine == aarch64 ]] || die "the root reports $machine, not aarch64"
echo "inside: $machine, $python, $(in_root cat /etc/debian_version)"

# --- the README's steps --------------------------------------------------------------------------
start=$(now)
rm -rf "$root/root/sheshbesh"
git clone --quiet --no-local "$repo" "$root/root/sheshbesh"
git -C "$root/root/sheshbesh" checkout --quiet --detach "$rev" || die "no commit '$rev' in $repo"
commit=$(git -C "$root/root/sheshbesh" rev-parse --short HEAD)
[[ -z $(git -C "$repo" status --porcelain --untracked-files=no) ]] ||
    echo "note: uncommitted changes in $repo are not checked; the clone is of $commit"
record clone "$commit" "$(elapsed "$start")"

start=$(now)
result=ok
in_root bash -c 'cd /root/sheshbesh && deploy/install.sh' || result=FAILED
record install "$result" "$(elapsed "$start")"
[[ $result == ok ]] || {
    report
    exit 1
}

if ((demo)); then
    start=$(now)
    result=ok
    in_root bash -c 'cd /var/lib/sheshbesh && /opt/sheshbesh/bin/sheshbesh demo --speed max --no-panel' \
        >"$root/root/demo.out" 2>&1 || result=FAILED
    tail -n 3 "$root/root/demo.out"
    # The demo's final line against the match file it plays, read by the installed program.
    if [[ $result == ok ]]; then
        in_root /opt/sheshbesh/bin/python -I - /root/demo.out <<'PYTHON' || result=WRONG
import json
import sys
from importlib import resources

from controller.record.matfile import read_mat

lines = open(sys.argv[1], encoding="utf-8").read().strip().splitlines()
said = json.loads(lines[-1])
match = read_mat(resources.files("controller").joinpath("data/demo-3pt.mat").read_text())
games = [(game.winner, game.points) for game in match.games if game.winner is not None]
seen = [(game["winner"], game["points"]) for game in said["games"]]
print(f"match file: games {games}, final score {list(match.final_score)}")
print(f"demo:       games {seen}, final score {said['score']}")
sys.exit(0 if seen == games and said["score"] == list(match.final_score) else 1)
PYTHON
    fi
    record demo "$result" "$(elapsed "$start")"
fi

start=$(now)
result=ok
in_root bash -c 'cd /root/sheshbesh && python3 -m venv .venv &&
    .venv/bin/pip install --quiet --disable-pip-version-check -e . pytest pytest-timeout hypothesis' ||
    result=FAILED
record testenv "$result" "$(elapsed "$start")"

start=$(now)
[[ $result == ok ]] || result=SKIPPED
if [[ $result == ok ]]; then
    printf -v quoted ' %q' "${tests[@]}"
    in_root bash -c "cd /root/sheshbesh && .venv/bin/python -m pytest -q -p no:cacheprovider$quoted" ||
        result=FAILED
fi
record tests "$result" "$(elapsed "$start")"

report
for line in "${steps[@]}"; do
    [[ $line != *FAILED* && $line != *WRONG* ]] || exit 1
done

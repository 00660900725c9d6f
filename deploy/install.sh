#!/usr/bin/env bash
# Installs sheshbesh on a Raspberry Pi (Raspberry Pi OS Bookworm or later). Safe to run again: it
# updates the program and the units and keeps the configuration and the recorded matches.
#
#   sudo deploy/install.sh              # install or update, enable and (re)start the service
#   sudo deploy/install.sh --kiosk      # also show the panel full-screen on the attached screen
#   sudo deploy/install.sh --analysis   # also build the analysis engine (bgsage) where no wheel exists
#   deploy/install.sh --dry-run         # print what would be done, change nothing
#   deploy/install.sh --prefix DIR      # lay the files down under DIR instead of / (for tests)
#   sudo deploy/install.sh --room-broker mqtts://broker.local --table t7 \
#       --room-ca room-ca.pem --room-secret t7.secret   # join a café's or a tournament's room
set -euo pipefail

readonly APP_DIR=/opt/sheshbesh
readonly CONFIG_DIR=/etc/sheshbesh
readonly STATE_DIR=/var/lib/sheshbesh
readonly UNIT_DIR=/etc/systemd/system
readonly RULES_DIR=/etc/udev/rules.d
readonly SERVICE_USER=sheshbesh
readonly KIOSK_USER=sheshbesh-kiosk
readonly KIOSK_HOME=/var/lib/sheshbesh-kiosk

usage() {
    cat <<'EOF'
Usage: sudo deploy/install.sh [OPTIONS]

Installs sheshbesh: the user 'sheshbesh', a virtualenv in /opt/sheshbesh, the config in
/etc/sheshbesh (kept if present), the systemd units and the udev rule of the LED controller;
then enables and (re)starts sheshbesh.service.

Options:
  --kiosk        also install cage and chromium and enable sheshbesh-kiosk.service
                 (the panel full-screen on tty1; for Raspberry Pi OS Lite)
  --dry-run      print what would be done and change nothing (needs no root)
  --prefix DIR   lay the files down under DIR instead of / (a staging root for tests and
                 images; implies --no-system)
  --no-system    touch only files: no apt-get, no users, no chown, no systemctl, no udevadm
  --no-venv      do not create or update the virtualenv (units and config only)
  --analysis     install the analysis extra (bgsage) even where it must be compiled: on a
                 Raspberry Pi (aarch64) it has no wheel, so this adds g++, cmake and
                 python3-dev and builds it (minutes on a Pi 5, longer on a Pi 4)
  --no-analysis  leave the analysis extra out (by default it is installed only where pip
                 finds a ready-made wheel, and skipped with a note elsewhere)
  --python PATH  interpreter for the virtualenv (default /usr/bin/python3, the one that sees
                 python3-picamera2 from apt)
  -h, --help     show this help

Joining a room (many tables on one MQTT broker, see the README's "Many tables"); these set
the [network] section of /etc/sheshbesh/sheshbesh.toml, also when the config is kept:
  --room-broker URL   the room's broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]
                      (no user or password in it: see --room-secret)
  --table NAME        this table's name in the room, which is also its broker user name
                      (1-64 letters, digits, '.', '_' or '-', starting with a letter or digit)
  --room NAME         the room's name (topics live under sheshbesh/ROOM/; default: kept,
                      "room" in a new config)
  --room-ca FILE      the room's CA certificate (PEM; deploy/mosquitto/make-ca.sh makes it),
                      copied to /etc/sheshbesh/room-ca.pem; needs an mqtts:// broker
  --room-secret FILE  this table's broker password, the file deploy/mosquitto/add-user.sh wrote
                      on the broker's machine; copied to /etc/sheshbesh/room-password (0640)
EOF
}

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }
die() {
    printf 'install.sh: error: %s\n' "$*" >&2
    exit 1
}

# Runs a command, or with --dry-run prints it in a form that can be pasted into a shell.
run() {
    if ((dry_run)); then
        printf '    would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# The path under the staging root (--prefix), or the path itself.
dest() { printf '%s%s' "$prefix" "$1"; }

prefix=""
dry_run=0
system=1
venv=1
kiosk=0
analysis=auto
python=/usr/bin/python3
room_broker=""
room_table=""
room_name=""
room_ca=""
room_secret=""

while (($#)); do
    case $1 in
    --kiosk) kiosk=1 ;;
    --analysis) analysis=yes ;;
    --no-analysis) analysis=no ;;
    --dry-run) dry_run=1 ;;
    --no-system) system=0 ;;
    --no-venv) venv=0 ;;
    --prefix | --python | --room-broker | --table | --room | --room-ca | --room-secret)
        (($# >= 2)) || die "$1 needs a value (see --help)"
        case $1 in
        --prefix) prefix=$2 ;;
        --python) python=$2 ;;
        --room-broker) room_broker=$2 ;;
        --table) room_table=$2 ;;
        --room) room_name=$2 ;;
        --room-ca) room_ca=$2 ;;
        --room-secret) room_secret=$2 ;;
        esac
        shift
        ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    --python=*) python=${1#--python=} ;;
    --room-broker=*) room_broker=${1#--room-broker=} ;;
    --table=*) room_table=${1#--table=} ;;
    --room=*) room_name=${1#--room=} ;;
    --room-ca=*) room_ca=${1#--room-ca=} ;;
    --room-secret=*) room_secret=${1#--room-secret=} ;;
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

if [[ -n $prefix ]]; then
    [[ $prefix == /* ]] || prefix=$PWD/$prefix
    prefix=${prefix%/}
    if ((system)) && [[ -n $prefix ]]; then
        note "--prefix lays down files only: no apt-get, users, systemctl or udevadm (--no-system)"
        system=0
    fi
fi

# A room's settings are checked before anything is done, so a mistake changes nothing.
name_pattern='^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'
broker_pattern='^mqtts?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?/?$'
joining=0
if [[ -n $room_broker || -n $room_table || -n $room_name || -n $room_ca || -n $room_secret ]]; then
    joining=1
    [[ -n $room_broker ]] || die "joining a room needs --room-broker URL (see --help)"
    [[ -n $room_table ]] || die "joining a room needs --table NAME (see --help)"
    [[ $room_broker =~ $broker_pattern ]] ||
        die "--room-broker '$room_broker' must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]" \
            "(no user, password or options: see --room-secret and --room-ca)"
    room_broker=${room_broker%/}
    [[ $room_table =~ $name_pattern ]] ||
        die "--table '$room_table' must be 1-64 letters, digits, '.', '_' or '-'," \
            "starting with a letter or digit"
    if [[ -n $room_name && ! $room_name =~ $name_pattern ]]; then
        die "--room '$room_name' must be 1-64 letters, digits, '.', '_' or '-'," \
            "starting with a letter or digit"
    fi
    if [[ -n $room_ca ]]; then
        [[ $room_broker == mqtts://* ]] ||
            die "--room-ca needs an mqtts:// broker (TLS), not '$room_broker'"
        [[ -f $room_ca && -r $room_ca ]] || die "--room-ca '$room_ca' is not a readable file"
        grep -q -- '-----BEGIN CERTIFICATE-----' "$room_ca" ||
            die "--room-ca '$room_ca' holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
    fi
    if [[ -n $room_secret ]]; then
        [[ -f $room_secret && -r $room_secret ]] ||
            die "--room-secret '$room_secret' is not a readable file"
        first_line=""
        IFS= read -r first_line <"$room_secret" || true
        [[ -n $first_line ]] ||
            die "--room-secret '$room_secret' has no password on its first line"
    fi
fi

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
for needed in pyproject.toml deploy/sheshbesh.toml deploy/sheshbesh.service \
    deploy/sheshbesh-kiosk.service deploy/99-sheshbesh-leds.rules deploy/kiosk-browser.sh \
    hardware/pinmap.toml; do
    [[ -f $source_dir/$needed ]] || die "$source_dir/$needed is missing: run install.sh from a sheshbesh clone"
done

if ((system)) && ((!dry_run)) && ((EUID != 0)); then
    die "run as root: sudo $0 (or --dry-run to preview, --no-system to lay down files only)"
fi

((dry_run)) && say "dry run: nothing will be changed"
[[ -n $prefix ]] && say "installing under $prefix"

model=""
if [[ -r /proc/device-tree/model ]]; then
    model=$(tr -d '\0' </proc/device-tree/model)
fi
if [[ $model == Raspberry\ Pi* ]]; then
    say "found a $model"
else
    note "this is not a Raspberry Pi: fine for a trial with fake LEDs and a USB camera"
fi
machine=$(uname -m)

# --- system packages ---------------------------------------------------------------------------

# Outputs are captured, not piped into grep -q: with pipefail an early grep exit could fail the test.
is_installed() {
    local status
    status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
    [[ $status == *"install ok installed"* ]]
}
is_available() {
    local policy
    policy=$(apt-cache policy "$1" 2>/dev/null) || return 1
    [[ $policy == *"Candidate:"* && $policy != *"Candidate: (none)"* ]]
}

if ((system)); then
    say "system packages"
    wanted=(python3-venv)
    # From Raspberry Pi OS: the Pi camera (libcamera) and the GPIO library, seen through
    # --system-site-packages. Absent on plain Debian, where a USB camera and pip's lgpio serve.
    for package in python3-picamera2 python3-lgpio; do
        if is_available "$package"; then wanted+=("$package"); fi
    done
    # bgsage ships wheels for x86-64 only; elsewhere --analysis compiles it (C++ with CMake).
    if [[ $analysis == yes && $machine != x86_64 ]]; then
        wanted+=(g++ cmake python3-dev)
    fi
    if ((kiosk)); then
        wanted+=(cage fonts-noto-core fonts-dejavu-core) # the kiosk shows Hebrew and Arabic too
        if is_installed chromium-browser; then wanted+=(chromium-browser); else wanted+=(chromium); fi
    fi
    missing=()
    for package in "${wanted[@]}"; do
        is_installed "$package" || missing+=("$package")
    done
    if ((${#missing[@]})); then
        run apt-get update
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
    else
        note "already installed: ${wanted[*]}"
    fi
fi

# --- users --------------------------------------------------------------------------------------

ensure_user() { # NAME HOME GROUP...
    local name=$1 home=$2 group
    shift 2
    if getent passwd "$name" >/dev/null; then
        note "user $name exists"
    else
        run useradd --system --user-group --home-dir "$home" --no-create-home \
            --shell /usr/sbin/nologin --comment "sheshbesh" "$name"
    fi
    for group in "$@"; do
        if getent group "$group" >/dev/null; then
            run usermod --append --groups "$group" "$name"
        else
            warn "group $group does not exist here; $name is not added to it"
        fi
    done
}

if ((system)); then
    say "users"
    # video: cameras; gpio: /dev/gpiochip* on Raspberry Pi OS; dialout: the LED controller's port.
    ensure_user "$SERVICE_USER" "$STATE_DIR" video gpio dialout
    if ((kiosk)); then
        ensure_user "$KIOSK_USER" "$KIOSK_HOME" video render input
    fi
fi

# --- the program ---------------------------------------------------------------------------------

venv_dir=$(dest "$APP_DIR")
if ((venv)); then
    say "virtualenv $venv_dir"
    [[ -x $python ]] || die "no Python at $python (apt-get install python3, or pass --python PATH)"
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "$python is older than Python 3.11, which sheshbesh needs"
    run "$python" -m venv --system-site-packages "$venv_dir"
    # Build from a clean copy, so the clone gets no root-owned build/ or *.egg-info folders.
    if ((dry_run)); then
        build_dir=/tmp/sheshbesh-build
    else
        build_dir=$(mktemp -d)
        trap 'rm -rf "$build_dir"' EXIT
    fi
    run tar -C "$source_dir" --exclude=./.git --exclude=./.venv --exclude=./var \
        --exclude=./build --exclude=./dist --exclude=./artifacts --exclude='*.egg-info' \
        --exclude=node_modules --exclude=__pycache__ -cf "$build_dir/source.tar" .
    run mkdir "$build_dir/source"
    run tar -C "$build_dir/source" -xf "$build_dir/source.tar"
    # GPIO: gpiozero's pin factory is lgpio (the unit sets GPIOZERO_PIN_FACTORY=lgpio; it is the
    # one that works on the Pi 5 as well as the Pi 4). Raspberry Pi OS ships it as python3-lgpio,
    # which the virtualenv sees; pip's lgpio (the pi extra) is a source package that needs the
    # lgpio C library and swig, so it is asked for only where both are here.
    target="$build_dir/source"
    if "$python" -c 'import lgpio' >/dev/null 2>&1; then
        note "GPIO: lgpio comes from the system (python3-lgpio): gpiozero's pin factory is lgpio"
    elif [[ -e /usr/include/lgpio.h ]] && command -v swig >/dev/null; then
        target="$build_dir/source[pi]"
        note "GPIO: pip builds lgpio (the pi extra): gpiozero's pin factory is lgpio"
    elif ((dry_run)); then
        note "GPIO: lgpio is looked for after apt-get has run (python3-lgpio on Raspberry Pi OS)"
    else
        warn "GPIO: no lgpio here (Raspberry Pi OS's python3-lgpio, or its C library and swig" \
            "for pip's): [lights]/[buttons] kind = \"pins\" will not work; serial, fake and none do"
    fi
    run "$venv_dir/bin/pip" install --disable-pip-version-check --upgrade "$target"

    # Analysis (optional; games are refereed and recorded without it).
    case $analysis in
    no) note "analysis: left out (--no-analysis); the panel shows it as not installed" ;;
    yes)
        say "analysis extra (bgsage)"
        [[ $machine == x86_64 ]] || note "no bgsage wheel for $machine: compiling it (minutes)"
        run "$venv_dir/bin/pip" install --disable-pip-version-check --upgrade bgsage ||
            die "analysis: bgsage did not build (see above); install.sh --no-analysis skips it"
        ;;
    auto)
        if ((dry_run)); then
            run "$venv_dir/bin/pip" install --disable-pip-version-check --upgrade \
                --only-binary=bgsage bgsage
            note "analysis: installed where pip finds a bgsage wheel, else skipped with a note"
        elif "$venv_dir/bin/pip" install --disable-pip-version-check --upgrade \
            --only-binary=bgsage bgsage; then
            note "analysis: bgsage installed from a wheel"
        else
            warn "analysis: skipped: pip has no bgsage wheel for $machine here." \
                "Games are refereed and recorded without it; \`sudo deploy/install.sh --analysis\`" \
                "compiles it (g++, cmake; minutes)"
        fi
        ;;
    esac
else
    note "--no-venv: the virtualenv in $venv_dir is left as it is"
fi

# --- files ---------------------------------------------------------------------------------------

say "files"
run install -d -m 0755 "$(dest "$CONFIG_DIR")" "$(dest "$STATE_DIR")" \
    "$(dest "$STATE_DIR")/hardware" "$(dest "$APP_DIR")/libexec" "$(dest "$UNIT_DIR")" \
    "$(dest "$RULES_DIR")" "$(dest /usr/local/bin)"

config=$(dest "$CONFIG_DIR")/sheshbesh.toml
if [[ -e $config ]]; then
    note "keeping $config"
else
    run install -m 0640 "$source_dir/deploy/sheshbesh.toml" "$config"
fi
# The example with every key, refreshed on each run, to compare against after an update.
run install -m 0644 "$source_dir/deploy/sheshbesh.toml" "$config.example"

pinmap=$(dest "$CONFIG_DIR")/pinmap.toml
if [[ -e $pinmap ]]; then
    note "keeping $pinmap"
else
    run install -m 0644 "$source_dir/hardware/pinmap.toml" "$pinmap"
fi
# The config's default pinmap path (hardware/pinmap.toml) is relative to the working directory.
pinmap_link=$(dest "$STATE_DIR")/hardware/pinmap.toml
if [[ -e $pinmap_link || -L $pinmap_link ]]; then
    note "keeping $pinmap_link"
else
    run ln -s "$CONFIG_DIR/pinmap.toml" "$pinmap_link"
fi

run install -m 0644 "$source_dir/deploy/sheshbesh.service" "$(dest "$UNIT_DIR")/sheshbesh.service"
run install -m 0644 "$source_dir/deploy/sheshbesh-kiosk.service" \
    "$(dest "$UNIT_DIR")/sheshbesh-kiosk.service"
run install -m 0644 "$source_dir/deploy/99-sheshbesh-leds.rules" \
    "$(dest "$RULES_DIR")/99-sheshbesh-leds.rules"
run install -m 0755 "$source_dir/deploy/kiosk-browser.sh" \
    "$(dest "$APP_DIR")/libexec/sheshbesh-kiosk-browser"
run ln -sfn "$APP_DIR/bin/sheshbesh" "$(dest /usr/local/bin)/sheshbesh"

# --- the room (many tables on one broker) ----------------------------------------------------

if ((joining)); then
    say "room: table $room_table on $room_broker"
    broker_url=$room_broker
    if [[ -n $room_ca ]]; then
        run install -m 0644 "$room_ca" "$(dest "$CONFIG_DIR")/room-ca.pem"
        broker_url="$room_broker/?ca=$CONFIG_DIR/room-ca.pem"
    fi
    settings=("broker=$broker_url" "table=$room_table")
    [[ -n $room_name ]] && settings+=("room=$room_name")
    if [[ -n $room_secret ]]; then
        run install -m 0640 "$room_secret" "$(dest "$CONFIG_DIR")/room-password"
        settings+=("password_file=$CONFIG_DIR/room-password" "username=")
        if ((system)); then run chown root:"$SERVICE_USER" "$(dest "$CONFIG_DIR")/room-password"; fi
    fi
    if ((dry_run)); then
        note "would set in [network] of $config: ${settings[*]}"
    else
        [[ -x $python ]] || die "no Python at $python to edit $config (pass --python PATH)"
        # Only these keys of [network] change (a missing key or section is added); every other
        # line, comments included, stays as it is.
        "$python" -I - "$config" "${settings[@]}" <<'PYTHON' || die "cannot edit $config"
import re
import sys

path, *pairs = sys.argv[1:]
values = dict(pair.split("=", 1) for pair in pairs)
with open(path, encoding="utf-8") as handle:
    lines = handle.read().splitlines()
out, section, seen, placed = [], None, set(), False


def place_missing():
    while out and not out[-1].strip():
        out.pop()
    out.extend(f'{key} = "{value}"' for key, value in values.items() if key not in seen)
    out.append("")


for line in lines:
    header = re.match(r"\s*\[([^\]]+)\]\s*(#.*)?$", line)
    if header:
        if section == "network":
            place_missing()
            placed = True
        section = header.group(1).strip()
    elif section == "network":
        key = re.match(r'(\s*)(\w+)(\s*=\s*)("(?:[^"\\]|\\.)*"|[^#]*?)(\s*#.*)?$', line)
        if key and key.group(2) in values:
            value = values[key.group(2)]
            line = f'{key.group(1)}{key.group(2)}{key.group(3)}"{value}"{key.group(5) or ""}'
            seen.add(key.group(2))
    out.append(line)
if section == "network" and not placed:
    place_missing()
    placed = True
if not placed:
    out += ["", "[network]"]
    place_missing()
while out and not out[-1].strip():
    out.pop()
with open(path, "w", encoding="utf-8") as handle:  # in place: the file keeps its mode and owner
    handle.write("\n".join(out) + "\n")
PYTHON
        note "[network] of $config: ${settings[*]}"
    fi
fi

if ((system)); then
    run chown root:"$SERVICE_USER" "$config"
    run chown "$SERVICE_USER":"$SERVICE_USER" "$STATE_DIR" "$STATE_DIR/hardware"
    if ((kiosk)); then
        run install -d -m 0750 -o "$KIOSK_USER" -g "$KIOSK_USER" "$KIOSK_HOME"
    fi
fi

if ((!dry_run)) && [[ -x $venv_dir/bin/python ]]; then
    # -I: check with the installed program, not with a controller/ folder in the current directory.
    "$venv_dir/bin/python" -I - "$config" <<'PYTHON' || die "fix $config and run install.sh again"
import sys
from controller.table.config import ConfigError, load_config
try:
    config = load_config(sys.argv[1])
except ConfigError as error:
    sys.exit(f"install.sh: error: {error}")
if config.network.broker:
    from controller.network.address import BrokerAddress, NetworkError, check_name
    try:
        BrokerAddress.from_url(config.network.broker)
        check_name(config.network.table)
        check_name(config.network.room, "room")
    except (NetworkError, ValueError) as error:
        sys.exit(f"install.sh: error: [network] in {sys.argv[1]}: {error}")
PYTHON
    note "$config is valid"
    # What the installed program sees: the Pi camera and the GPIO pin factory.
    if "$venv_dir/bin/python" -I -c 'import picamera2' >/dev/null 2>&1; then
        note "Pi camera: picamera2 is importable ([camera] source = \"picamera\")"
    else
        note "Pi camera: no picamera2 here (Raspberry Pi OS: apt install python3-picamera2);" \
            "a USB camera works ([camera] source = \"0\")"
    fi
    if "$venv_dir/bin/python" -I -c 'import gpiozero.pins.lgpio' >/dev/null 2>&1; then
        note "GPIO: gpiozero's lgpio pin factory is importable"
    else
        note "GPIO: gpiozero's lgpio pin factory is not importable (no lgpio)"
    fi
fi

# --- services ------------------------------------------------------------------------------------

if ((system)); then
    say "services"
    # Without a running udev or systemd (a chroot, an image being prepared) there is nothing to
    # reload: the rule and the units take effect at the next boot.
    if ((dry_run)) || [[ -S /run/udev/control ]]; then
        run udevadm control --reload-rules
        run udevadm trigger --action=add --subsystem-match=tty
    else
        note "udev is not running here (a chroot?): the LED controller's rule applies at the next boot"
    fi
    if ((dry_run)) || [[ -d /run/systemd/system ]]; then
        run systemctl daemon-reload
    fi
    services=(sheshbesh.service)
    ((kiosk)) && services+=(sheshbesh-kiosk.service)
    run systemctl enable "${services[@]}"
    if [[ -d /run/systemd/system ]]; then
        run systemctl restart "${services[@]}"
    else
        note "systemd is not running here (a chroot?): the services start at the next boot"
    fi
else
    note "--no-system: skipped apt-get, users, ownership, udevadm and systemctl"
fi

say "done"
cat <<EOF
Next steps:
  1. Edit $CONFIG_DIR/sheshbesh.toml (camera, [lights] kind/port, [panel] host), then
     sudo systemctl restart sheshbesh
  2. Calibrate the camera (see the README): sudo systemctl stop sheshbesh, then
     cd $STATE_DIR && sudo -u $SERVICE_USER $APP_DIR/bin/sheshbesh calibrate --camera 0 --field-corners x1,y1,x2,y2,x3,y3,x4,y4 --out var/calibration.json --overlay var/calibration.png
  3. Check it: systemctl status sheshbesh; journalctl -u sheshbesh -f
EOF

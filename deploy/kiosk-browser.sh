#!/usr/bin/env bash
# Waits until the sheshbesh panel answers, then shows it full-screen in Chromium.
# Run by sheshbesh-kiosk.service inside cage; installed as /opt/sheshbesh/libexec/sheshbesh-kiosk-browser.
# Environment: SHESHBESH_PANEL_URL (default http://127.0.0.1:8080/),
#              SHESHBESH_BROWSER (default: the first of chromium, chromium-browser on PATH).
set -euo pipefail

url=${SHESHBESH_PANEL_URL:-http://127.0.0.1:8080/}

if [[ ! $url =~ ^http://([^/:]+)(:([0-9]+))?(/.*)?$ ]]; then
    echo "sheshbesh-kiosk: SHESHBESH_PANEL_URL must look like http://HOST:PORT/, not '$url'" >&2
    exit 2
fi
host=${BASH_REMATCH[1]}
port=${BASH_REMATCH[3]:-80}

browser=${SHESHBESH_BROWSER:-}
if [[ -z $browser ]]; then
    for candidate in chromium chromium-browser; do
        if command -v "$candidate" >/dev/null; then
            browser=$(command -v "$candidate")
            break
        fi
    done
fi
if [[ -z $browser ]]; then
    echo "sheshbesh-kiosk: no browser found; install one with: sudo apt-get install chromium" >&2
    exit 1
fi

# Chromium shows an error page if the panel is not listening yet, so wait for the port first.
waited=0
until (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; do
    if ((waited % 30 == 0)); then
        echo "sheshbesh-kiosk: waiting for the panel at $url" >&2
    fi
    sleep 1
    waited=$((waited + 1))
done

exec "$browser" \
    --kiosk \
    --noerrdialogs \
    --disable-infobars \
    --disable-session-crashed-bubble \
    --disable-features=Translate \
    --no-first-run \
    --password-store=basic \
    --ozone-platform-hint=auto \
    --check-for-update-interval=31536000 \
    "$url"

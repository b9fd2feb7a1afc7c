#!/usr/bin/env bash
# What an idle click waiter costs (docs/desktop.md, "What a waiter costs"): on a private X display
# (Xvfb), session bus and notification server (dunst), a run shows "Wash Complete!" with two buttons; then
# `strace -c` counts the waiter's system calls for 60 seconds, and the time from `nudge laundry start snowy dry`
# (which settles the notification) to the waiter's end is printed. A measurement, not a test.
#
# usage: scripts/idle-waiter.sh [BINARY]   (default .build/debug/nudge; needs Xvfb, dbus-daemon, dunst, strace)
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/.build/debug/nudge}"
W=$(mktemp -d /tmp/idle-waiter.XXXXXX)
export XDG_RUNTIME_DIR=$W/run HOME=$W TZ=UTC
mkdir -m 700 "$XDG_RUNTIME_DIR"
DISPLAY_NUMBER=77
Xvfb :$DISPLAY_NUMBER -nolisten tcp >/dev/null 2>&1 & XPID=$!
until [ -S /tmp/.X11-unix/X$DISPLAY_NUMBER ]; do sleep 0.05; done
export DISPLAY=:$DISPLAY_NUMBER
{ read -r DBUS_SESSION_BUS_ADDRESS; read -r DPID; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1)
export DBUS_SESSION_BUS_ADDRESS
dunst >/dev/null 2>&1 & NPID=$!
until dbus-send --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
        string:org.freedesktop.Notifications 2>/dev/null | grep -q true; do sleep 0.05; done
D=$W/data; mkdir -p "$D"
echo '{"deliver":{"desktop":true}}' > "$D/settings.json"
START=$(date -u -d '-46 min' +%Y-%m-%dT%H:%M:%SZ); BEFORE=$(date -u -d '-2 min' +%Y-%m-%dT%H:%M:%SZ)
echo '{"pets":[{"id":"snowy","name":"Snowy","washMinutes":45,"dryMinutes":60,"cycle":{"id":"c-1","stage":"wash","startedAt":"'"$START"'"}}]}' > "$D/laundry.json"
"$BIN" run --data "$D" --now "$BEFORE" >/dev/null 2>&1
"$BIN" run --data "$D"
WPID=""
until [ -n "$WPID" ]; do WPID=$(pgrep -n -f "desktop-wait.*$D"); sleep 0.05; done
echo "waiter $WPID: VmRSS $(awk '/VmRSS/{print $2, $3}' "/proc/$WPID/status")"
echo "system calls of the waiter in 60 s (none listed: none made):"
timeout -s INT 60 strace -c -p "$WPID" 2>&1 | grep -v '^strace: Process'
T0=$(date +%s.%N)
"$BIN" laundry start snowy dry --data "$D" >/dev/null 2>&1
while kill -0 "$WPID" 2>/dev/null; do sleep 0.01; done
echo "waiter gone $(echo "$(date +%s.%N) - $T0" | bc) s after \`nudge laundry start snowy dry\` began"
kill "$NPID" "$DPID" "$XPID" 2>/dev/null
rm -rf "$W"

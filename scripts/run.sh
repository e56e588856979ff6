#!/usr/bin/env bash
# make run: start fxd on its embedded default with a demo account and key,
# print a ready `fxd call` line, and stay in the foreground until Ctrl-C.
set -euo pipefail
BIN=${BIN:-bin/fxd}
DATA=${DATA:-./data}
mkdir -p "$DATA"
chmod 700 "$DATA"

# admin.addr is written once the service has recovered and serves.
rm -f "$DATA/admin.addr"
"$BIN" webhook-key create --out "$DATA/webhook.key" > /dev/null
"$BIN" serve --data-dir "$DATA" --webhook-master-key-file "$DATA/webhook.key" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null' INT TERM EXIT

until [ -s "$DATA/admin.addr" ]; do
  kill -0 $pid 2>/dev/null || { echo "fxd serve exited" >&2; exit 1; }
  sleep 0.2
done

key_file="$DATA/demo.pem"
if [ ! -f "$DATA/demo.json" ]; then
  acct=$("$BIN" admin accounts create --data-dir "$DATA" --name "Demo account")
  acct_id=$(printf '%s' "$acct" | sed -E 's/.*"id":"([^"]+)".*/\1/')
  rm -f "$key_file"
  "$BIN" admin keys create --data-dir "$DATA" --account "$acct_id" \
    --scopes read,trade,pay,wallets,webhooks --out "$key_file" > "$DATA/demo.json"
fi
key_id=$(sed -E 's/.*"key_id":"([^"]+)".*/\1/' "$DATA/demo.json")

echo
echo "fxd is running (data in $DATA). Try:"
echo "  $BIN call --key-id $key_id --key-file $key_file GET /public/v1/account"
echo "(the body goes to stdout, so it can be piped to jq; the status line to stderr, and with -i every header)"
echo
wait $pid

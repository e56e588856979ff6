#!/bin/bash
# rfq.sh KEY WALLETFILE [amount] [extra fund json]
cd /tmp/auditD
K=$1; W=$2; AMT=${3:-10}; EXTRA=${4:-'{}'}
key=$(jq -r .key $W)
./c.sh $K POST /fx/quotes "{\"from_currency\":\"USDC\",\"to_currency\":\"EURC\",\"amount\":\"$AMT\"}" 2>/dev/null > qr.json
Q=$(jq -r '[.quotes[]|select(.route=="rfq")][0].id' qr.json)
./c.sh $K POST /fx/quotes/$Q/accept '{}' 2>/dev/null > or.json
OID=$(jq -r .order_id or.json); echo "order $OID $(jq -r .state or.json)"
jq -n --arg k "$key" --slurpfile o or.json --argjson x "$EXTRA" '{op:"fund",key:$k,signing:$o[0].signing} + $x' | node eth.mjs | tee fr.json

#!/bin/sh
# The room's own certificate authority and the broker's certificate signed by it.
#   make-ca.sh DIR HOSTNAME [IP]
# writes DIR/ca.crt (give it to every table and the hub: ?ca=... in the broker URL), DIR/ca.key
# (keep it off the network), DIR/server.crt and DIR/server.key (for mosquitto). The broker's
# certificate names HOSTNAME (and IP when given), which is what the tables' URL must say.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 DIR HOSTNAME [IP]" >&2
    exit 2
fi
dir=$1
host=$2
ip=${3:-}
mkdir -p "$dir"
cd "$dir"
umask 077
openssl req -x509 -new -newkey rsa:2048 -nodes -days 3650 -sha256 \
    -subj "/CN=sheshbesh room CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout ca.key -out ca.crt 2>/dev/null
openssl req -new -newkey rsa:2048 -nodes -sha256 -subj "/CN=$host" \
    -keyout server.key -out server.csr 2>/dev/null
san="DNS:$host"
if [ -n "$ip" ]; then
    san="$san,IP:$ip"
fi
cat > server.ext <<EXT
subjectAltName=$san
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid,issuer
EXT
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 825 -sha256 \
    -extfile server.ext -out server.crt 2>/dev/null
rm -f server.csr server.ext ca.srl
chmod 644 ca.crt server.crt
echo "CA: $dir/ca.crt  broker: $dir/server.crt $dir/server.key"

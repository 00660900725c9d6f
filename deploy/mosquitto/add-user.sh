#!/bin/sh
# A broker user for a table (its user name is its table name) or for the hub (user "hub").
#   add-user.sh PASSWORD_FILE NAME SECRET_FILE
# makes a random password, adds NAME to mosquitto's PASSWORD_FILE (created when missing) and
# writes the password to SECRET_FILE (mode 600): copy that file to the table and name it in its
# config ([network] password_file). Reload mosquitto afterwards (systemctl reload mosquitto).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: $0 PASSWORD_FILE NAME SECRET_FILE" >&2
    exit 2
fi
passwords=$1
name=$2
secret=$3
case $name in
    *[!A-Za-z0-9_.-]* | "" | [._-]*)
        echo "$0: name '$name' must be letters, digits, '.', '_' or '-', starting with a letter or digit" >&2
        exit 2
        ;;
esac
password=$(openssl rand -hex 16)
if [ -f "$passwords" ]; then
    mosquitto_passwd -b "$passwords" "$name" "$password"
else
    mosquitto_passwd -c -b "$passwords" "$name" "$password"
fi
umask 077
printf '%s\n' "$password" > "$secret"
echo "user $name added to $passwords; its password is in $secret"

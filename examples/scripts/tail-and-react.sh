#!/usr/bin/env bash
# Follow a log as it grows and react to each error line as it arrives; when it ends (or Ctrl-C
# stops it), say how many there were. The vow version is tail-and-react.vow.
#   bash tail-and-react.sh app.log
errors=0
trap 'echo "$errors errors"' EXIT
trap 'exit 130' INT
while IFS= read -r line; do
    case $line in
        *ERROR*) echo "alert: $line" >&2; errors=$((errors + 1)) ;;
    esac
done < "$1"

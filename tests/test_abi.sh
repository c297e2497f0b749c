#!/bin/sh
# Tests the shared library's interface: SONAME and links, exported symbols equal to the BC_API
# functions of the library headers (include/blockcrypt.h, include/blockcrypt-fscrypt.h), and the ABI compared with the recorded one (abigail-tools' abidiff).
NAME=test_abi.sh
. "$(dirname "$0")/sh_common.sh"

info=$(make -s BUILD="$BUILD" api-info)
version=$(echo "$info" | sed -n 's/^version \([^ ]*\) .*/\1/p')
soname=$(echo "$info" | sed -n 's/.* soname \([^ ]*\) .*/\1/p')
baseline=$(echo "$info" | sed -n 's/.* baseline \([^ ]*\)$/\1/p')
api=$(echo "$info" | sed -n 2p | tr ' ' '\n' | sort)
lib=$BUILD/libblockcrypt.so.$version

[ -n "$api" ] && [ "$(echo "$api" | wc -l)" -ge 30 ] && ok || bad "no public functions found in the library headers"
readelf -d "$lib" | grep -q "SONAME.*\[$soname\]" && ok || bad "$lib: SONAME is not $soname"
[ "$(readlink "$BUILD/$soname")" = "libblockcrypt.so.$version" ] && ok || bad "$BUILD/$soname does not point at $lib"

# The dynamic symbol table: exactly the header's functions, each with the library's version node.
syms=$(nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }')
exported=$(echo "$syms" | sed 's/@.*//' | sort)
if [ "$exported" = "$api" ]; then
	ok
else
	bad "exported symbols differ from the header's functions:"
	echo "$exported" > "$T/exp"
	echo "$api" > "$T/api"
	diff "$T/api" "$T/exp" | sed 's/^/    /'
fi
echo "$syms" | grep -qv '@@BLOCKCRYPT_' && bad "unversioned symbols: $(echo "$syms" | grep -v '@@BLOCKCRYPT_')" || ok

# abi_verdict OLD NEW: 0 if NEW keeps OLD's ABI (nothing removed or changed; additions are fine).
abi_verdict() {
	abidiff "$1" "$2" > "$T/abidiff.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && return 0
	[ $((rc & 3)) -eq 0 ] || return 2
	[ $((rc & 8)) -eq 0 ] || return 1
	# rc 4, an ABI change: only additions are compatible
	grep -E 'changes summary:' "$T/abidiff.out" | grep -qE '(^|[^0-9])[1-9][0-9]* (Removed|Changed)' && return 1
	return 0
}

if ! command -v abidiff >/dev/null 2>&1 || ! command -v abidw >/dev/null 2>&1; then
	echo "SKIPPED: abi: abidiff/abidw not installed (Debian: abigail-tools); symbols checked, ABI not compared"
elif [ "$(uname -m)" != x86_64 ] || [ "$BUILD" != build ]; then
	echo "SKIPPED: abi: the recorded ABI is the x86-64 native build's"
elif [ ! -f "$baseline" ]; then
	bad "no recorded ABI for $soname: record it with 'make abi-baseline' when the major version changes"
else
	rm -f "$BUILD/libblockcrypt.abi"
	make -s BUILD="$BUILD" "$BUILD/libblockcrypt.abi" > "$T/abidw.log" 2>&1 || bad "abidw failed: $(tail -3 "$T/abidw.log")"
	abi_verdict "$baseline" "$BUILD/libblockcrypt.abi"
	case $? in
	0) ok ;;
	1) bad "incompatible ABI change against $baseline (a new major version needs 'make abi-baseline'):"
	   head -40 "$T/abidiff.out" | sed 's/^/    /' ;;
	*) bad "abidiff failed: $(head -5 "$T/abidiff.out")" ;;
	esac
	# The comparison can fail: a grown public struct and a removed function are both caught,
	# while a function only added is accepted.
	sed "s/\(<class-decl name='bc_driver_info' size-in-bits='\)\([0-9]*\)'/\1$((576 + 64))'/" "$baseline" > "$T/grown.abi"
	cmp -s "$baseline" "$T/grown.abi" && bad "could not alter bc_driver_info's size in the copy"
	abi_verdict "$baseline" "$T/grown.abi" && bad "a changed bc_driver_info size went unnoticed" || ok
	grep -v "elf-symbol name='bc_memneq'" "$BUILD/libblockcrypt.abi" > "$T/removed.abi"
	abi_verdict "$baseline" "$T/removed.abi" && bad "a removed bc_memneq went unnoticed" || ok
	abi_verdict "$T/removed.abi" "$BUILD/libblockcrypt.abi" && ok || bad "an added function counted as incompatible"
fi
finish

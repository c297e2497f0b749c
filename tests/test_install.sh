#!/bin/sh
# Tests `make install` / `make uninstall` into a staging DESTDIR, and building the examples against
# the installed copy with pkg-config only, dynamically and statically (GNU coding standards' DESTDIR).
NAME=test_install.sh
. "$(dirname "$0")/sh_common.sh"

CC=${CC:-cc}
D=$T/dest
version=$(make -s BUILD="$BUILD" api-info | sed -n 's/^version \([^ ]*\) .*/\1/p')
soname=$(make -s BUILD="$BUILD" api-info | sed -n 's/.* soname \([^ ]*\) .*/\1/p')
make -s BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr install > "$T/install.log" 2>&1 || bad "make install: $(tail -5 "$T/install.log")"

# where the library went: the multiarch directory on Debian, else /usr/lib
pc=$(find "$D" -name blockcrypt.pc)
have_pc=1
if ! command -v pkg-config >/dev/null 2>&1; then
	echo "SKIPPED: install: the examples are not built against the install (pkg-config not installed)"
	have_pc=0
fi
[ -n "$pc" ] && ok || bad "blockcrypt.pc not installed"
libdir=$(dirname "$(dirname "$pc")")
# the .pc names the directories of this install (PREFIX=/usr), whatever the build was made with
grep -qx "includedir=/usr/include" "$pc" && grep -qx "libdir=${libdir#$D}" "$pc" && ok ||
	bad "blockcrypt.pc does not name this install's directories: $(grep dir= "$pc" | tr '\n' ' ')"
for f in "$libdir/libblockcrypt.so.$version" "$libdir/$soname" "$libdir/libblockcrypt.so" "$libdir/libblockcrypt.a" \
	"$D/usr/include/blockcrypt.h" "$D/usr/bin/blockcrypt" "$D/usr/share/man/man3/blockcrypt.3" \
	"$D/usr/share/man/man3/bc_skcipher_alloc.3"; do
	[ -e "$f" ] && ok || bad "not installed: ${f#$D}"
done
# the OpenSSL provider module goes into OpenSSL's modules directory, where built
if [ -f "$BUILD/provider/blockcrypt.so" ]; then
	[ -n "$(find "$D" -path '*ossl-modules/blockcrypt.so')" ] && ok || bad "the OpenSSL provider module was not installed"
fi
[ "$(readlink "$libdir/$soname")" = "libblockcrypt.so.$version" ] && ok || bad "$soname does not point at the release"
[ "$(readlink "$libdir/libblockcrypt.so")" = "$soname" ] && ok || bad "libblockcrypt.so does not point at $soname"
readelf -d "$libdir/libblockcrypt.so.$version" | grep -q "SONAME.*\[$soname\]" && ok || bad "SONAME is not $soname"

if [ $have_pc -eq 1 ]; then
	# pkg-config against the staged tree, as a packager's build would see it
	export PKG_CONFIG_LIBDIR="$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" PKG_CONFIG_PATH=
	[ "$(pkg-config --modversion blockcrypt)" = "$version" ] && ok || bad "pkg-config --modversion: $(pkg-config --modversion blockcrypt)"
	pkg-config --static --libs blockcrypt | grep -q -- -pthread && ok || bad "Libs.private lacks -pthread"
	for ex in xts_sectors gcm_seal; do
		# shellcheck disable=SC2046 # pkg-config's output is a list of words
		$CC -Wall -Werror -o "$T/$ex-dyn" examples/$ex.c $(pkg-config --cflags --libs blockcrypt) 2> "$T/cc.log" &&
			ok || bad "$ex: dynamic build: $(head -5 "$T/cc.log")"
		# shellcheck disable=SC2046
		$CC -Wall -Werror -static -o "$T/$ex-static" examples/$ex.c $(pkg-config --static --cflags --libs blockcrypt) \
			2> "$T/cc.log" && ok || bad "$ex: static build: $(head -5 "$T/cc.log")"
		readelf -d "$T/$ex-dyn" 2>/dev/null | grep -q "NEEDED.*\[$soname\]" && ok || bad "$ex-dyn does not need $soname"
		readelf -d "$T/$ex-static" 2>/dev/null | grep -q "NEEDED.*libblockcrypt" && bad "$ex-static needs libblockcrypt" || ok
	done
	export LD_LIBRARY_PATH="$libdir"
	tool=$D/usr/bin/blockcrypt
	# one version number: the installed tool says the one pkg-config and the library's name carry
	"$tool" --version | grep -qw "$version" && ok || bad "blockcrypt --version does not say $version: $("$tool" --version)"

	# xts_sectors: every 512-byte sector is one data unit whose tweak is its number, which the
	# installed tool checks sector by sector (the last one short, with ciphertext stealing).
	for keylen in 32 64; do
		head -c $keylen /dev/urandom > "$T/key"
		key=$(hexof "$T/key")
		head -c $((3 * 512 + 100)) /dev/urandom > "$T/plain"
		for link in dyn static; do
			"$T/xts_sectors-$link" encrypt "$T/key" "$T/plain" "$T/ct" && ok || bad "xts_sectors-$link encrypt"
			: > "$T/ref"
			for s in 0 1 2 3; do
				dd if="$T/plain" bs=512 skip=$s count=1 2>/dev/null |
					"$tool" encrypt 'xts(aes)' --key "$key" --iv "0${s}000000000000000000000000000000" >> "$T/ref"
			done
			cmp -s "$T/ct" "$T/ref" && ok || bad "xts_sectors-$link ($keylen-byte key) differs from blockcrypt per sector"
			"$T/xts_sectors-$link" decrypt "$T/key" "$T/ct" "$T/back" && cmp -s "$T/back" "$T/plain" && ok ||
				bad "xts_sectors-$link decrypt does not give the plaintext back"
		done
	done
	head -c 1029 /dev/urandom > "$T/short"
	"$T/xts_sectors-dyn" encrypt "$T/key" "$T/short" "$T/ct" 2> "$T/err" && bad "xts_sectors took a 5-byte last sector" || ok
	grep -q "shorter than one AES block" "$T/err" && ok || bad "xts_sectors: no reason for a short sector: $(cat "$T/err")"

	# gcm_seal: round trip, a forged message refused with nothing written, and the tool opens what it sealed
	key=$(rhex 32)
	head -c 1000 /dev/urandom > "$T/plain"
	for link in dyn static; do
		"$T/gcm_seal-$link" seal "$key" < "$T/plain" > "$T/sealed" && ok || bad "gcm_seal-$link seal"
		[ "$(wc -c < "$T/sealed")" -eq $((1000 + 28)) ] && ok || bad "gcm_seal-$link: sealed size"
		"$T/gcm_seal-$link" open "$key" < "$T/sealed" > "$T/back" && cmp -s "$T/back" "$T/plain" && ok ||
			bad "gcm_seal-$link open"
		nonce=$(head -c 12 "$T/sealed" | hexof)
		tail -c +13 "$T/sealed" | "$tool" decrypt 'gcm(aes)' --key "$key" --iv "$nonce" > "$T/back2" &&
			cmp -s "$T/back2" "$T/plain" && ok || bad "blockcrypt cannot open what gcm_seal-$link sealed"
		{ head -c 500 "$T/sealed"; head -c 1 "$T/sealed" | tr '\000-\377' '\001-\377\000'; tail -c +502 "$T/sealed"; } > "$T/forged"
		"$T/gcm_seal-$link" open "$key" < "$T/forged" > "$T/back" 2> "$T/err"
		[ $? -eq 1 ] && [ ! -s "$T/back" ] && ok || bad "gcm_seal-$link opened a forged message"
	done
fi

# the man pages render without warnings
for page in $(find "$D/usr/share/man" -name '*.[13]' ! -name 'bc_*'); do
	if command -v groff >/dev/null 2>&1; then
		w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
		[ -z "$w" ] && ok || bad "${page#$D}: groff warnings: $w"
	fi
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man -l "$page" 2>&1 | grep -q "blockcrypt" && ok || bad "man -l ${page#$D} does not render"
	fi
done
if command -v man >/dev/null 2>&1; then
	# an installed function name leads to the API page
	MANWIDTH=80 man -M "$D/usr/share/man" 3 bc_aead_encrypt 2>/dev/null | grep -q "bc_aead_encrypt" && ok ||
		bad "man bc_aead_encrypt does not show the API page"
else
	echo "SKIPPED: install: man pages not rendered (man-db not installed)"
fi

# uninstall removes every file install wrote (with the pkg-config the build saw, not the staged one)
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH
make -s BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr uninstall > "$T/uninstall.log" 2>&1 || bad "make uninstall failed"
left=$(find "$D" ! -type d)
[ -z "$left" ] && ok || bad "make uninstall left: $left"
finish

#!/bin/sh
# AF_ALG without the kernel: cryptsetup's kernel crypto backend served by `blockcrypt run`, for the ciphers its
# OpenSSL backend lacks (serpent, twofish, camellia, adiantum): benchmark rows, LUKS2 keyslots made by either tool,
# and cryptsetup's offline re-encryption between them.
NAME=afalg_cryptsetup
. "$(dirname "$0")/sh_common.sh"
RUN="$BC run --"
PB2="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"

if ! command -v cryptsetup >/dev/null 2>&1; then
	echo "SKIPPED: afalg: cryptsetup not installed (cryptsetup-bin)"
else
	printf 'first passphrase' > "$T/pw"
	printf 'second passphrase' > "$T/pw2"
	# every row cryptsetup benchmark prints for a cipher is a figure, not N/A: its cipher check and timing
	# loop run on the emulated sockets
	for c in "aes-xts 512" "serpent-xts 512" "twofish-xts 256" "camellia-xts 512" "serpent-cbc 256" "twofish-cbc 128"; do
		set -- $c
		$RUN cryptsetup benchmark --cipher "$1" --key-size "$2" >"$T/bench" 2>&1
		if grep -q "MiB/s.*MiB/s" "$T/bench" && ! grep -q "N/A" "$T/bench"; then ok
		else bad "cryptsetup benchmark --cipher $1 --key-size $2: no figures"; sed 's/^/    /' "$T/bench" | tail -n 3; fi
	done
	for c in "serpent-xts-plain64 512" "twofish-xts-plain64 256" "camellia-xts-plain64 512" "serpent-cbc-essiv:sha256 256" \
	         "twofish-cbc-plain64 256" "xchacha12,aes-adiantum-plain64 256" "xchacha20,aes-adiantum-plain64 256"; do
		set -- $c
		img=$T/img
		# cryptsetup's keyslot, encrypted with the cipher through the sockets, opened by blockcrypt
		rm -f "$img" && truncate -s 8M "$img"
		rc 0 "cryptsetup luksFormat $1" $RUN cryptsetup luksFormat -q --type luks2 --cipher "$1" --key-size "$2" $PB2 \
			--key-file "$T/pw" "$img"
		rc 0 "blockcrypt test-passphrase on cryptsetup's $1" $BC luks test-passphrase "$img" --key-file "$T/pw"
		rc 0 "cryptsetup luksAddKey $1" $RUN cryptsetup luksAddKey -q $PB2 --key-file "$T/pw" "$img" "$T/pw2"
		rc 0 "blockcrypt opens cryptsetup's added $1 keyslot" $BC luks test-passphrase "$img" --key-file "$T/pw2"
		rc 2 "a wrong passphrase stays wrong" $BC luks test-passphrase "$img" --key-file "$T/img"
		# blockcrypt's image, its keyslot opened and extended by cryptsetup through the sockets
		rm -f "$img"
		rc 0 "blockcrypt luks format $1" $BC luks format "$img" --cipher "$1" --key-size "$2" $PB2 --size 4194304 \
			--key-file "$T/pw"
		rc 0 "cryptsetup test-passphrase on blockcrypt's $1" $RUN cryptsetup open --test-passphrase --key-file "$T/pw" "$img"
		rc 2 "cryptsetup refuses a wrong passphrase" $RUN cryptsetup open --test-passphrase --key-file "$T/pw2" "$img"
		rc 0 "cryptsetup luksAddKey on blockcrypt's $1" $RUN cryptsetup luksAddKey -q $PB2 --key-file "$T/pw" "$img" "$T/pw2"
		rc 0 "blockcrypt opens the key cryptsetup added" $BC luks test-passphrase "$img" --key-file "$T/pw2"
	done
	# cryptsetup's offline re-encryption, its ciphers served through the sockets. cryptsetup keeps the kernel
	# crypto API out of re-encryption when it runs as root (it wants dm-crypt then), so it runs as nobody, with
	# --disable-locks (its lock directory is root's). A blockcrypt serpent image is re-keyed to twofish with
	# 4096-byte sectors, back to serpent, then to camellia, one resilience mode each; blockcrypt reads the
	# plaintext that went in after every pass.
	if ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
		echo "SKIPPED: afalg: cryptsetup reencrypt: no setpriv or no user nobody to run it unprivileged"
	else
		AS_NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
		R=$T/reenc
		mkdir "$R" && chmod 0711 "$T" && chown nobody "$R"
		head -c 3145728 /dev/urandom > "$R/plain"
		cp "$T/pw" "$R/pw"
		# the tool and its preload beside it, where nobody can reach them wherever the build tree is
		cp "$BC" "$BUILD/libblockcrypt-afalg.so" "$R/"
		rc 0 "blockcrypt luks format serpent-xts-plain64 --from" $BC luks format "$R/img" --cipher serpent-xts-plain64 \
			--key-size 512 $PB2 --key-file "$R/pw" --from "$R/plain"
		chown nobody "$R/img" "$R/pw"
		REENC="cryptsetup reencrypt -q --force-offline-reencrypt --disable-locks $PB2 --key-file $R/pw"
		# the control: unprivileged, with neither the device mapper nor the kernel's AF_ALG, cryptsetup cannot
		rc 1 "cryptsetup reencrypt of serpent without the emulation fails" $AS_NOBODY $REENC "$R/img"
		for c in "twofish-xts-plain64 256 4096 checksum" "serpent-xts-plain64 512 512 journal" \
		         "camellia-xts-plain64 512 4096 none"; do
			set -- $c
			rc 0 "cryptsetup reencrypt to $1, $4 resilience" $AS_NOBODY "$R/blockcrypt" run -- $REENC --cipher "$1" --key-size "$2" \
				--sector-size "$3" --resilience "$4" "$R/img"
			$BC luks dump "$R/img" > "$R/dump" 2>&1
			if grep -q "cipher: *$1" "$R/dump" && grep -q "sector: *$3" "$R/dump"; then ok
			else bad "after cryptsetup reencrypt the segment is not $1 with $3-byte sectors"; fi
			rm -f "$R/out"
			rc 0 "blockcrypt luks decrypt after reencrypt to $1" $BC luks decrypt "$R/img" "$R/out" --key-file "$R/pw"
			if cmp -s "$R/plain" "$R/out"; then ok
			else bad "the plaintext after cryptsetup reencrypt to $1 differs from what went in"; fi
		done
	fi
fi
finish

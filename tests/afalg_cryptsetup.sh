#!/bin/sh
# AF_ALG without the kernel: cryptsetup's kernel crypto backend served by `blockcrypt run`, for the ciphers its
# OpenSSL backend lacks (serpent, twofish, camellia, adiantum): benchmark rows, and LUKS2 keyslots made by either tool.
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
fi
finish

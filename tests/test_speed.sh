#!/bin/sh
# Tests `blockcrypt speed` and `benchmark` (option errors, tcrypt line format, CSV/JSON parsed back)
# and the bench-peers SVG chart. Smoke runs only: never an assertion on a speed.
NAME=test_speed.sh
. "$(dirname "$0")/sh_common.sh"

# expect STATUS DESCRIPTION COMMAND...: a failure writes nothing on stdout and says why on stderr.
expect() {
	want=$1 desc=$2
	shift 2
	"$@" < /dev/null > "$T/out" 2> "$T/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$desc: exit $got, want $want ($(head -c 200 "$T/err"))"
	elif [ "$want" -ne 0 ] && [ -s "$T/out" ]; then
		bad "$desc: wrote output although it failed"
	elif [ "$want" -ne 0 ] && [ ! -s "$T/err" ]; then
		bad "$desc: no message on stderr"
	else
		ok
	fi
}

# matches DESCRIPTION FILE ERE COUNT: exactly COUNT lines of FILE match ERE.
matches() {
	n=$(grep -cE "$3" "$2")
	[ "$n" -eq "$4" ] && ok || { bad "$1: $n lines match, want $4"; head -20 "$2"; }
}

if [ ! -x "$BC" ]; then
	echo "$NAME: $BC is missing (run make first)"
	echo "$NAME: 0 passed, 1 failed"
	exit 1
fi

# ---- option parsing -----------------------------------------------------------------------
S='xts(aes)'
expect 2 "--sizes empty" "$BC" speed "$S" --sizes ""
expect 2 "--sizes 0" "$BC" speed "$S" --sizes 0
expect 2 "--sizes 16,abc" "$BC" speed "$S" --sizes 16,abc
expect 2 "--sizes -16" "$BC" speed "$S" --sizes -16
expect 2 "--sizes too big" "$BC" speed "$S" --sizes 999999999999
expect 2 "--time 0" "$BC" speed "$S" --time 0
expect 2 "--time -1" "$BC" speed "$S" --time -1
expect 2 "--time abc" "$BC" speed "$S" --time abc
expect 2 "--time 1x" "$BC" speed "$S" --time 1x
expect 2 "--time nan" "$BC" speed "$S" --time nan
expect 2 "--time 1e9" "$BC" speed "$S" --time 1e9
expect 2 "--key-bits 0" "$BC" speed "$S" --key-bits 0
expect 2 "--key-bits 100" "$BC" speed "$S" --key-bits 100
expect 2 "--key-bits x" "$BC" speed "$S" --key-bits x
expect 2 "--key-bits 128 on xts" "$BC" speed "$S" --key-bits 128 --time 0.01
expect 2 "--key-bits 256 on sm4" "$BC" speed 'ecb(sm4)' --key-bits 256 --time 0.01
expect 2 "--threads 0" "$BC" speed "$S" --threads 0
expect 2 "--threads 100000" "$BC" speed "$S" --threads 100000
expect 2 "--csv and --json" "$BC" speed "$S" --csv --json
expect 2 "unknown option" "$BC" speed "$S" --frob
expect 2 "option without value" "$BC" speed "$S" --time
expect 2 "unknown name" "$BC" speed 'xts(nosuch)' --time 0.01
expect 2 "a bare cipher" "$BC" speed aes --time 0.01
expect 2 "one bad name among good" "$BC" speed 'cbc(aes)' nosuch --time 0.01
expect 2 "benchmark with an argument" "$BC" benchmark extra

# ---- tcrypt format ------------------------------------------------------------------------
# The kernel's lines (crypto/tcrypt.c), then what we add: ", N cycles/byte".
KHEAD='^testing speed of [^ ]+ \([^ ]+\) (encryption|decryption)$'
KLINE='^test [0-9]+ \([0-9]+ bit key, [0-9]+ byte blocks\): [0-9]+ operations in [0-9.]+ seconds \([0-9]+ bytes\)'
KHASH='^test +[0-9]+ \( *[0-9]+ byte blocks, *[0-9]+ bytes per update, *[0-9]+ updates\): +[0-9]+ opers/sec, +[0-9]+ bytes/sec'
CPB=', [0-9]+\.[0-9]+ cycles/byte$'

expect 0 "speed xts(aes)" "$BC" speed "$S" --sizes 16,1420 --time 0.01
cp "$T/out" "$T/x"
matches "xts heading" "$T/x" "^testing speed of xts\\(aes\\) \\([^ ]+\\) encryption\$" 1
# xts(aes) takes 256-, 384- and 512-bit keys: three keys, two sizes, numbered on from 0 as tcrypt does.
matches "xts test lines" "$T/x" "$KLINE$CPB" 6
matches "xts 1420 bytes kept" "$T/x" '1420 byte blocks' 3
matches "xts key sizes" "$T/x" '\((256|384|512) bit key' 6
matches "xts numbering" "$T/x" '^test [0-5] ' 6
matches "seconds as given" "$T/x" ' in 0.01 seconds ' 6
matches "cycles header" "$T/x" '^# cycles/byte: core clock measured' 1
# operations x size = bytes, on every line.
awk '/^test / { ops = $9; size = $6; b = $14; gsub(/[(]/, "", b); if (ops * size != b) bad++ } END { exit bad > 0 }' \
	"$T/x" && ok || bad "tcrypt bytes != operations x block size"

expect 0 "speed --decrypt gcm" "$BC" speed 'gcm(aes)' --decrypt --key-bits 128 --sizes 16,64 --time 0.01
matches "gcm decryption heading" "$T/out" '^testing speed of gcm\(aes\) \([^ ]+\) decryption$' 1
matches "gcm decryption lines" "$T/out" "$KLINE$CPB" 2
expect 0 "speed cbc at 1420" "$BC" speed 'cbc(aes)' --key-bits 128 --sizes 1420 --time 0.01
matches "cbc rounds 1420 up to the block size" "$T/out" '\(128 bit key, 1424 byte blocks\)' 1
expect 0 "speed hashes" "$BC" speed sha256 'cmac(sm4)' --sizes 16,64,4096 --time 0.01
matches "hash headings" "$T/out" '^testing speed of (sha256 \([^ ]+\)|cmac\(sm4\) \([^ ]+\) with 128 bit key)$' 2
matches "hash lines" "$T/out" "$KHASH$CPB" 6
expect 0 "speed whole seconds" "$BC" speed 'ctr(sm4)' --sizes 64 --time 1
matches "whole seconds print as an integer" "$T/out" "$KLINE$CPB" 1
matches "in 1 seconds" "$T/out" ' operations in 1 seconds ' 1
expect 0 "speed --threads 2" "$BC" speed 'ecb(aes)' --key-bits 128 --sizes 256 --time 0.01 --threads 2
matches "threads header" "$T/out" '^# blockcrypt speed: .*2 threads' 1
matches "threads line" "$T/out" "$KLINE$CPB" 1

# ---- CSV and JSON, parsed back --------------------------------------------------------------
if command -v python3 > /dev/null 2>&1; then
	expect 0 "speed --csv" "$BC" speed 'essiv(cbc(aes),sha256)' 'gcm(sm4)' sm3 --sizes 16,100 --time 0.01 --csv
	python3 - "$T/out" <<'EOF' && ok || bad "CSV does not parse back"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == "name,driver,keybits,op,size,ops_per_s,bytes_per_s,cycles_per_byte".split(","), rows[0]
body = rows[1:]
assert all(len(r) == 8 for r in body), body
names = {r[0] for r in body}
assert names == {"essiv(cbc(aes),sha256)", "gcm(sm4)", "sm3"}, names
for name, driver, keybits, op, size, ops, bps, cpb in body:
    assert driver, name
    assert op == ("digest" if name == "sm3" else "encrypt"), (name, op)
    assert (int(keybits) == 0) == (name == "sm3") and int(keybits) % 8 == 0, (name, keybits)
    assert int(size) in (16, 100, 112), size
    assert float(ops) > 0 and float(cpb) > 0
    assert abs(float(bps) - float(ops) * int(size)) <= 0.01 * float(bps) + 1, (ops, size, bps)
# essiv takes 128-, 192- and 256-bit keys, cbc rounds 100 up to 112.
assert sorted({int(r[2]) for r in body if r[0].startswith("essiv")}) == [128, 192, 256]
assert all(int(r[2]) == 128 for r in body if r[0] == "gcm(sm4)")
assert {int(r[4]) for r in body if r[0].startswith("essiv")} == {16, 112}
assert len(body) == 3 * 2 + 2 + 2, len(body)
EOF
	grep -q '^#' "$T/out" && bad "CSV stdout holds a note" || ok
	grep -q '^# cycles/byte' "$T/err" && ok || bad "CSV: the notes are not on stderr"

	expect 0 "speed --json" "$BC" speed 'xts(sm4)' ghash --sizes 16,1420 --time 0.01 --json --decrypt
	python3 - "$T/out" <<'EOF' && ok || bad "JSON does not parse back"
import json, sys
rows = json.load(open(sys.argv[1]))
keys = ["name", "driver", "keybits", "op", "size", "ops_per_s", "bytes_per_s", "cycles_per_byte"]
assert len(rows) == 4, rows
for r in rows:
    assert list(r) == keys, r
    assert r["op"] == ("digest" if r["name"] == "ghash" else "decrypt"), r
    assert r["keybits"] == (128 if r["name"] == "ghash" else 256), r
    assert r["size"] in (16, 1420) and r["ops_per_s"] > 0 and r["cycles_per_byte"] > 0, r
EOF
	expect 0 "speed --json, every algorithm" "$BC" speed --sizes 64 --time 0.01 --json --key-bits 128
	python3 - "$T/out" <<'EOF' && ok || bad "JSON of every algorithm"
import json, sys
rows = json.load(open(sys.argv[1]))
names = {r["name"] for r in rows}
for n in ["ecb(aes)", "cbc(sm4)", "ctr(aes)", "cts(cbc(sm4))", "essiv(cbc(aes),sha256)", "gcm(aes)",
          "cmac(aes)", "xcbc(sm4)", "cbcmac(aes)", "sha256", "sm3", "ghash"]:
    assert n in names, n
# xts takes no 128-bit key: left out, not an error, when no name is given.
assert "xts(aes)" not in names
EOF
else
	echo "SKIPPED: $NAME: CSV/JSON parsing: python3 not found"
fi

# ---- benchmark ------------------------------------------------------------------------------
expect 0 "benchmark" "$BC" benchmark --time 0.01 --iter-time 20
matches "benchmark header" "$T/out" '^#     Algorithm \|       Key \|      Encryption \|      Decryption$' 1
# cryptsetup's KDF rows first: PBKDF2 for five hashes (N/A without the luks part), then argon2i and argon2id
KDF='^(PBKDF2-(sha1|sha256|sha512|ripemd160|whirlpool) +([0-9]+ iterations per second for 256-bit key|N/A)|argon2id? +([0-9]+ iterations, +[0-9]+ memory, [0-9]+ parallel threads \(CPUs\) for 256-bit key \(requested 20 ms time\)|N/A))$'
matches "benchmark KDF rows" "$T/out" "$KDF" 7
sed -n 2,8p "$T/out" | awk '/^PBKDF2/ { if (substr($0, 17, 1) != " " || length($1) > 16) bad++ } END { exit bad > 0 }' && ok ||
	bad "benchmark PBKDF2 rows are not cryptsetup's width"
grep -v '^PBKDF2-\|^argon2' "$T/out" >"$T/ciphers"
ROW='^ *[a-z0-9,-]+ +([0-9]+b|-) +([0-9]+\.[0-9] MiB/s|N/A) +([0-9]+\.[0-9] MiB/s|N/A)$'
matches "benchmark rows" "$T/ciphers" "$ROW" "$(grep -cv '^#' "$T/ciphers")"
# cryptsetup's fourteen rows in its order, then ours
grep -v '^#' "$T/ciphers" | head -n 14 | awk '{ printf "%s %s,", $1, $2 }' >"$T/order"
check_order='aes-cbc 128b,serpent-cbc 128b,twofish-cbc 128b,aes-cbc 256b,serpent-cbc 256b,twofish-cbc 256b,'
check_order=${check_order}'aes-xts 256b,serpent-xts 256b,twofish-xts 256b,aes-xts 512b,serpent-xts 512b,twofish-xts 512b,'
check_order=${check_order}'xchacha12,aes-adiantum 256b,xchacha20,aes-adiantum 256b,'
[ "$(cat "$T/order")" = "$check_order" ] && ok || bad "benchmark: cryptsetup's rows out of order: $(cat "$T/order")"
for row in '        aes-cbc        128b ' '        aes-xts        256b ' '        aes-xts        512b ' \
	'        sm4-xts        256b ' '        aes-gcm        128b ' '        aes-lrw        384b ' \
	'xchacha12,aes-adiantum        256b ' 'xchacha20,aes-adiantum        256b '; do
	grep -q "^$row" "$T/out" && ok || bad "benchmark lacks '$row'"
done
# cryptsetup's column layout: %15s (wider for adiantum's name), two spaces, %9ub, two spaces, %10.1f MiB/s, ...
awk '!/^#/ && length($0) != (length($1) > 15 ? length($1) : 15) + 2 + 10 + 2 * 18 { bad++ } END { exit bad > 0 }' "$T/ciphers" && ok ||
	bad "benchmark rows are not cryptsetup's width"
[ "$(grep -c '^# ' "$T/out" | tr -d ' ')" -eq "$(grep '^# ' "$T/out" | sort -u | wc -l | tr -d ' ')" ] && ok ||
	bad "benchmark: a driver line repeated"
expect 2 "benchmark --iter-time 0" "$BC" benchmark --iter-time 0
expect 2 "benchmark --time twice" "$BC" benchmark --time 0.01 --time 0.01

# ---- bench-peers: the chart is well-formed SVG with one series per library -------------------
PEERS=$BUILD/bench-peers
if [ ! -x "$PEERS" ]; then
	make -s BUILD="$BUILD" "$PEERS" > "$T/make" 2>&1 || echo "SKIPPED: $NAME: bench-peers: cannot build it ($(tail -1 "$T/make"))"
fi
if [ -x "$PEERS" ] && command -v python3 > /dev/null 2>&1; then
	expect 0 "bench-peers" "$PEERS" --time 0.005 --sizes 16,1420 --only aes-128-ctr,sm3,sm4-ecb --svg "$T/chart.svg"
	matches "bench-peers table" "$T/out" '^(aes-128-ctr|sm3|sm4-ecb) +[0-9]+ ' 6
	python3 - "$T/chart.svg" <<'EOF' && ok || bad "bench-peers SVG"
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
panels = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "panel"]
assert [p.getAttribute("data-alg") for p in panels] == ["aes-128-ctr", "sm4-ecb", "sm3"], panels
libs = {"blockcrypt", "openssl", "libgcrypt", "nettle"}
for p in panels:
    series = [l.getAttribute("data-lib") for l in p.getElementsByTagName("polyline")]
    assert len(series) == len(set(series)), series          # one series per library
    assert "blockcrypt" in series and set(series) <= libs, series
    for l in p.getElementsByTagName("polyline"):
        assert len(l.getAttribute("points").split()) == 2   # one point per size
# Every library draws somewhere: nettle has AES and SM3, the others everything here.
drawn = {l.getAttribute("data-lib") for l in doc.getElementsByTagName("polyline")}
assert drawn == libs, drawn
EOF
	expect 2 "bench-peers bad option" "$PEERS" --frob
else
	echo "SKIPPED: $NAME: bench-peers SVG: no $PEERS or no python3"
fi

finish

#!/bin/sh
# blockcrypt luks serve beside nbdkit, in one run: a LUKS1 image's plaintext copied out by nbdcopy (peer: nbdkit's
# file plugin with its luks filter), and random 4 KiB reads by fio's nbd engine (peer: nbdkit's file plugin on the
# unencrypted image). NBD per doc/proto.md. Usage: [BC=build/blockcrypt] [BENCH_DIR=/dev/shm] [ROUNDS=3] sh bench/nbd.sh [MiB]
BC=${BC:-build/blockcrypt}
MIB=${1:-1024}
ROUNDS=${ROUNDS:-3}
DIR=$(mktemp -d "${BENCH_DIR:-/dev/shm}/bc-nbd.XXXXXX") || exit 1
S=$DIR/s
U="nbd+unix:///?socket=$S"
PID=
trap '[ -n "$PID" ] && kill -TERM $PID 2>/dev/null; rm -rf "$DIR"' EXIT

for t in nbdcopy nbdkit fio; do
	command -v $t >/dev/null || { echo "bench/nbd.sh: $t is not installed (libnbd-bin, nbdkit, fio)"; exit 2; }
done
MHZ=$(awk -F: '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)

wait_socket() {
	i=0
	while [ ! -S "$S" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	[ -S "$S" ] || { echo "bench/nbd.sh: the server did not start"; exit 1; }
}
start_bc() { rm -f "$S"; "$BC" luks serve "$DIR/img" --key-file "$DIR/pw" --read-only --socket "$S" 2>/dev/null & PID=$!; wait_socket; }
start_kit() { rm -f "$S"; nbdkit -f -r -U "$S" "$@" 2>/dev/null & PID=$!; wait_socket; }
stop() { kill -TERM $PID; wait $PID 2>/dev/null; PID=; }
now() { date +%s%N; }

printf 'bench passphrase' >"$DIR/pw"
head -c $((MIB << 20)) /dev/urandom >"$DIR/plain"
"$BC" luks format "$DIR/img" --type luks1 --cipher aes-xts-plain64 --key-size 512 --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --from "$DIR/plain" --key-file "$DIR/pw" --batch-mode || exit 1
echo "nbdcopy of a $MIB MiB LUKS1 aes-xts-plain64 image's plaintext to null: (best of $ROUNDS, $DIR)"

best_bc=0
best_kit=0
for r in $(seq "$ROUNDS"); do
	start_bc
	t0=$(now)
	nbdcopy "$U" null: || exit 1
	t=$(($(now) - t0))
	stop
	{ [ $best_bc -eq 0 ] || [ $t -lt $best_bc ]; } && best_bc=$t
	start_kit --filter=luks file "$DIR/img" passphrase=+"$DIR/pw"
	t0=$(now)
	nbdcopy "$U" null: || exit 1
	t=$(($(now) - t0))
	stop
	{ [ $best_kit -eq 0 ] || [ $t -lt $best_kit ]; } && best_kit=$t
done
awk -v b=$best_bc -v k=$best_kit -v m=$MIB -v mhz="$MHZ" 'BEGIN {
	printf "  blockcrypt luks serve      %8.1f MiB/s  %6.2f cycles/byte (wall clock at %.0f MHz)\n", m / (b / 1e9), b / 1e9 * mhz * 1e6 / (m * 1048576), mhz
	printf "  nbdkit file --filter=luks  %8.1f MiB/s  %6.2f cycles/byte\n", m / (k / 1e9), k / 1e9 * mhz * 1e6 / (m * 1048576)
	printf "  ratio blockcrypt/nbdkit    %8.2fx\n", k / b }'

# random 4 KiB reads, 16 in flight, 5 s each, alternated: the encrypted export beside an unencrypted one
fio_iops() {
	fio --name=rr --ioengine=nbd --uri="$U" --rw=randread --bs=4k --iodepth=16 --size=$((MIB << 20)) \
		--runtime=5 --time_based --minimal --output="$DIR/fio.out" >/dev/null 2>&1
	awk -F';' 'NR == 1 { printf "%d\n", $8 }' "$DIR/fio.out"
}
iops_bc=0
iops_kit=0
for r in $(seq "$ROUNDS"); do
	start_bc
	n=$(fio_iops)
	stop
	[ "$n" -gt $iops_bc ] && iops_bc=$n
	start_kit file "$DIR/plain"
	n=$(fio_iops)
	stop
	[ "$n" -gt $iops_kit ] && iops_kit=$n
done
awk -v b="$iops_bc" -v k="$iops_kit" -v mhz="$MHZ" 'BEGIN {
	printf "random 4 KiB reads (fio nbd engine, iodepth 16, best of rounds)\n"
	printf "  blockcrypt luks serve (LUKS1)   %8.0f IOPS  %6.2f cycles/byte\n", b, mhz * 1e6 / (b * 4096)
	printf "  nbdkit file (unencrypted)       %8.0f IOPS  %6.2f cycles/byte\n", k, mhz * 1e6 / (k * 4096)
	printf "  ratio blockcrypt/nbdkit         %8.2fx\n", b / k }'

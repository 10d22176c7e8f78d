# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The uverbs fuzzer (suite fuzz, lanes mlx5x and upstream): /job/uvfuzz
# (tools/testing/e2e/fuzz/uvfuzz.c) on the uverbs node of DEV.  Sourced by
# run.sh; the lane's teardown then unloads the driver and the host reads
# the emulator's report (leaks, violations).  Knobs (job.env): FUZZ_SEED
# FUZZ_OPS FUZZ_PROCS FUZZ_KILLS FUZZ_TIME.
#
#   fuzz/baseline   an unmutated scenario (context, UAR, PD, MR, CQs, SRQ,
#                   QP to RTS, MW, AH, teardown) works before the run
#   fuzz/run        the run: operations, ops/s, processes, SIGKILLs; no
#                   worker crashed or hung
#   fuzz/errnos     every refusal an errno of the documented set (the
#                   histogram per command is logs/fuzz-errnos.txt)
#   fuzz/dmesg      no oops, WARNING, BUG, KASAN, UBSAN, KFENCE, lockdep
#                   or hung-task report while it ran
#   fuzz/after      the baseline again: the device still works

FUZZ_KERNEL_ERE='Call Trace|WARNING:|BUG:|Oops|general protection|UBSAN|KASAN|KFENCE|kmemleak|RIP:|list_(add|del) corruption|refcount_t|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|hung_task|soft lockup'

# fuzz_node DEV: the /dev/infiniband/uverbsN of ib device DEV.
fuzz_node() {
	local d
	for d in /sys/class/infiniband_verbs/uverbs*; do
		[ "$(cat "$d/ibdev" 2>/dev/null)" = "$1" ] || continue
		echo "/dev/infiniband/${d##*/}"
		return 0
	done
	return 1
}

# fuzz_val LOG KEY: the value of "KEY=value" in uvfuzz's output.
fuzz_val() { sed -n "s/^$2=//p" "$1" | head -n1; }

# fuzz_errnos LOG: "ERRNO(count) ..." over all commands, refusals only.
fuzz_errnos() {
	awk '$1 == "errno" || $1 == "unexpected" { if ($3 != "OK") n[$3] += $4 }
		END { for (e in n) printf "%s(%d) ", e, n[e] }' "$1" | sed 's/ $//'
}

fuzz_baseline() {
	local name=$1 node=$2 log
	log=$(logname "$name")
	timeout -k 5 300 /job/uvfuzz -s "$FUZZ_SEED" -n 0 "$node" > "$log" 2>&1
	case $(fuzz_val "$log" baseline) in
	ok) record "$name" pass "context, UAR+mmap, PD, MR, CQs, SRQ, QP to RTS, MW, AH, teardown: 8 scenarios" ;;
	"") record "$name" fail "no verdict: $(excerpt "$log")" ;;
	*) record "$name" fail "$(fuzz_val "$log" baseline)" ;;
	esac
}

fuzz_main() {
	local node log rc before hits ops unexp det
	node=$(fuzz_node "$DEV") ||
		{ record fuzz/run fail "no uverbs node for $DEV"; return 1; }
	fuzz_baseline fuzz/baseline "$node"
	log=$(logname fuzz/run)
	before=$(dmesg | wc -l)
	say "uvfuzz -s $FUZZ_SEED -n $FUZZ_OPS -p $FUZZ_PROCS -k $FUZZ_KILLS on $node"
	timeout -k 10 $((FUZZ_TIME + 300)) /job/uvfuzz -s "$FUZZ_SEED" -n "$FUZZ_OPS" \
		-p "$FUZZ_PROCS" -k "$FUZZ_KILLS" -t "$FUZZ_TIME" "$node" > "$log" 2> "$log.err"
	rc=$?
	grep -E '^(errno|unexpected) ' "$log" | sort -k2,2 -k4,4nr > "$LOGS/fuzz-errnos.txt"
	ops=$(fuzz_val "$log" ops)
	if [ -z "$ops" ]; then
		record fuzz/run fail "uvfuzz $(rc_detail $rc), no report: $(excerpt "$log.err")"
	else
		perf fuzz ops "$ops" ops
		perf fuzz ops_per_s "$(fuzz_val "$log" ops_per_s)" ops/s
		perf fuzz qp_rts "$(fuzz_val "$log" depth_rts)" QPs
		det="$ops ops (target $FUZZ_OPS, seed $FUZZ_SEED) in $(fuzz_val "$log" seconds) s, $(fuzz_val "$log" ops_per_s) ops/s; $(fuzz_val "$log" spawned) workers ($FUZZ_PROCS at a time), $(fuzz_val "$log" killed) SIGKILLed; $(fuzz_val "$log" depth_rts) QPs reached RTS"
		[ "$ops" -ge "$FUZZ_OPS" ] || det+="; stopped by the ${FUZZ_TIME} s limit"
		if [ $rc -eq 0 ]; then
			record fuzz/run pass "$det"
		else
			record fuzz/run fail "uvfuzz $(rc_detail $rc), crashed=$(fuzz_val "$log" crashed) hung=$(fuzz_val "$log" hung): $(excerpt "$log.err") | $det"
		fi
		unexp=$(awk '$1 == "unexpected" { printf "%s:%s(%s) ", $2, $3, $4 }' "$log")
		if [ -z "$unexp" ]; then
			record fuzz/errnos pass "$(fuzz_errnos "$log")"
		else
			record fuzz/errnos fail "outside the documented set: $unexp"
		fi
	fi
	dmesg | tail -n +"$((before + 1))" > "$LOGS/fuzz-dmesg.log"
	hits=$(grep -E "$FUZZ_KERNEL_ERE" "$LOGS/fuzz-dmesg.log")
	if [ -z "$hits" ]; then
		record fuzz/dmesg pass "no oops, WARNING, BUG, KASAN, UBSAN, KFENCE, lockdep or hung-task report; $(wc -l < "$LOGS/fuzz-dmesg.log") kernel lines during the run"
	else
		record fuzz/dmesg fail "$(echo "$hits" | wc -l) line(s): $(echo "$hits" | head -n 2 | tr '\n' ' ' | cut -c1-240)"
	fi
	fuzz_baseline fuzz/after "$node"
}

# SPDX-License-Identifier: GPL-2.0
#
# mlx5x: out-of-tree RDMA driver for ConnectX (mlx5 family) HCAs.
#
# Module build, the kbuild way:
#   make [KVER=<kernel release>] [KDIR=<kernel build dir>]
# DKMS passes KVER=$kernelver.  Without KVER the running kernel is used,
# which is only right for a manual build on the target machine.
#
# Everything else (see README.rst):
#   make run      emulated ConnectX in a VM, mlx5x loaded, an RDMA exchange
#   make check    every test; ends with "N passed, N failed"
#   make compat   W=1 + sparse + checkpatch against every supported kernel
#   make kunit    KUnit suites on UML
#   make ifc      include/mlx5x layouts against the kernel's mlx5_ifc.h
#   make fwdiff   firmware commands of mlx5x against upstream mlx5's
#   make emu      build the emulated ConnectX; make emu-test runs its unit tests
#   make e2e DRIVER=rxe|upstream|mlx5x [SUITE=full|bringup|faults|fabric|fwevents|fuzz]
#            [KERNEL=debian|debug]   debug: KASAN/lockdep/UBSAN guest (mlx5x)
#   make e2e DRIVER=mixed|all SUITE=fabric   mixed: upstream on one HCA, mlx5x
#            on the other; all: the upstream, mixed and mlx5x fabric lanes
#            in one boot
#   make debug-kernel  build the debug guest kernel (cached)
#   make bench    upstream and mlx5x side by side on one emulator (figures)
#   make fresh-check  run and check as a new user: in a fresh Debian 12 tree

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
DRIVER ?= mlx5x
SUITE ?= full
KERNEL ?= debian
T := tools/testing

export MLX5X_CACHE ?= /var/cache/mlx5x

.PHONY: all modules clean modules_install help run check compat kunit emu \
	emu-test rig debug-kernel e2e bench fresh-check ifc fwdiff

all: modules

modules:
	@if [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "mlx5x: no kernel build tree at KDIR=$(KDIR)." >&2; \
		echo "  Install the headers for kernel $(KVER) (Debian: apt install linux-headers-$(KVER))," >&2; \
		echo "  or pass KVER=<release> / KDIR=<path to a configured kernel tree>." >&2; \
		echo "  (To build and test without a ConnectX or headers, use 'make run' / 'make check'.)" >&2; \
		exit 1; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

clean:
	@if [ -f "$(KDIR)/Makefile" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	if [ -f $(T)/emu/Makefile ]; then $(MAKE) -C $(T)/emu clean; fi
	rm -rf build

compat:
	$(T)/compat/run.sh

kunit:
	$(T)/kunit/run.sh

ifc:
	$(T)/ifc/run.sh

fwdiff:
	$(T)/fwdiff/run.sh

emu:
	$(MAKE) -C $(T)/emu

emu-test:
	$(MAKE) -C $(T)/emu test

rig:
	$(T)/vm/build-rootfs.sh >/dev/null

debug-kernel:
	$(T)/vm/build-debug-kernel.sh >/dev/null

e2e:
	MLX5X_KERNEL=$(KERNEL) $(T)/e2e/lane.sh $(DRIVER) $(SUITE)

run:
	$(T)/vm/run-demo.sh

bench:
	$(T)/e2e/bench.sh

check:
	$(T)/check.sh

fresh-check:
	$(T)/fresh-check.sh

# jmmap + jrec: top-level build.
#
#   make                 build jrec (userspace) and jmmap.ko (for the installed kernel headers)
#   make deps            install every Debian package the project needs (runs apt-get update)
#   make check           deps, build, then every test suite in tests/suites/
#   make demo            deps, build, then record and report the bundled demo JIT
#   make bench           the report benchmarks against perf
#   make dkms-install KERNELRELEASE=<release>
#
# KERNELRELEASE= and KDIR= choose the kernel jmmap is built for. KERNELRELEASE is
# also a kbuild-internal variable, so it is taken here as KREL and never passed
# on to sub-makes under its own name.

VERSION := $(shell cat VERSION)
KREL := $(or $(KERNELRELEASE),$(shell scripts/default-krel))
KDIR ?= /lib/modules/$(KREL)/build
BUILD := $(CURDIR)/build
MAKEOVERRIDES := $(filter-out KERNELRELEASE=%,$(MAKEOVERRIDES))
unexport KERNELRELEASE

SUBMAKE = $(MAKE) --no-print-directory

.PHONY: all jrec kmod tests examples deps check demo bench clean dkms-install fuzz

all: jrec kmod tests examples

jrec:
	$(SUBMAKE) -C userspace BUILD=$(BUILD)

examples:
	$(SUBMAKE) -C examples/demo-jit BUILD=$(BUILD)

tests:
	$(SUBMAKE) -C tests BUILD=$(BUILD)

kmod:
	$(SUBMAKE) -C kmod KDIR=$(KDIR) O_BUILD=$(BUILD)/kmod-$(KREL)

deps:
	scripts/install-deps

check: deps
	$(SUBMAKE) all
	tests/run-suites

demo: deps
	$(SUBMAKE) jrec examples
	scripts/demo

bench: deps
	$(SUBMAKE) jrec
	scripts/bench

dkms-install:
	scripts/dkms-install $(VERSION) $(KREL)

clean:
	$(SUBMAKE) -C userspace BUILD=$(BUILD) clean
	rm -rf $(BUILD)

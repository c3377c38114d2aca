# jmmap + jrec: top-level build.
#
#   make                 build jrec (userspace) and jmmap.ko (for the installed kernel headers)
#   make deps            install every Debian package the project needs (runs apt-get update)
#   make check           deps, build, then every test suite in tests/suites/
#   make demo            the packages it needs, jrec and the demo JIT, then the demo JIT
#                        recorded by perf and by jrec, compared (scripts/demo)
#   make demo-guest      the module at work in the 6.12 guest, beside perf: the demo JIT's
#                        mapping records and a library replaced mid-run (scripts/demo-guest)
#   make bench           the benchmarks: jrec report against perf (scripts/bench; BENCH_ONLY=annotate: its annotate part), the
#                        same on a --call-graph dwarf recording (scripts/bench-dwarf), the
#                        cost of record --off-cpu against perf's (scripts/bench-offcpu),
#                        the JIT runtimes' table (scripts/bench-runtimes; in the 6.12
#                        guest with and without jmmap, scripts/bench-runtimes-guest), jrec top's CPU
#                        against perf top's on the demo JIT (scripts/bench-top), then
#                        jmmap's cost in QEMU guests (scripts/bench-guest);
#                        BENCH_ONLY=report, dwarf, offcpu, runtimes, top or guest runs one
#   make dkms-install KERNELRELEASE=<release>
#   make install         jrec, its man pages and bash completion under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local)
#   make deb             the Debian packages jmmap-dkms and jrec, in build/deb/
#
# KERNELRELEASE= and KDIR= choose the kernel jmmap is built for. KERNELRELEASE is
# also a kbuild-internal variable, so it is taken here as KREL and never passed
# on to sub-makes under its own name.

VERSION := $(shell cat VERSION)
KREL := $(or $(KERNELRELEASE),$(shell scripts/default-krel))
KDIR ?= /lib/modules/$(KREL)/build
BUILD := $(CURDIR)/build
PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
MAKEOVERRIDES := $(filter-out KERNELRELEASE=%,$(MAKEOVERRIDES))
unexport KERNELRELEASE


.PHONY: all jrec kmod tests examples deps check demo demo-guest bench clean dkms-install fuzz install deb

all: jrec kmod tests examples

jrec:
	$(MAKE) --no-print-directory -C userspace BUILD=$(BUILD)

examples:
	$(MAKE) --no-print-directory -C examples/demo-jit BUILD=$(BUILD)

tests:
	$(MAKE) --no-print-directory -C tests BUILD=$(BUILD)

kmod:
	$(MAKE) --no-print-directory -C kmod KDIR=$(KDIR) O_BUILD=$(BUILD)/kmod-$(KREL)

deps:
	scripts/install-deps

check: deps
	$(MAKE) --no-print-directory -j$(shell nproc) all
	tests/run-suites

demo:
	scripts/install-deps demo
	$(MAKE) --no-print-directory -C userspace BUILD=$(BUILD) bin
	$(MAKE) --no-print-directory examples
	scripts/demo

demo-guest:
	scripts/install-deps demo guest
	$(MAKE) --no-print-directory -C userspace BUILD=$(BUILD) bin
	$(MAKE) --no-print-directory -C tests BUILD=$(BUILD) $(BUILD)/tests/progs/rec_replace \
		$(BUILD)/tests/progs/libx-v1.so $(BUILD)/tests/progs/libx-v2.so
	$(MAKE) --no-print-directory examples
	scripts/demo-guest

BENCH_ONLY ?=
# $(call bench_on,NAME): NAME when BENCH_ONLY is empty or names it
bench_on = $(if $(BENCH_ONLY),$(filter $(1),$(BENCH_ONLY)),$(1))
bench: deps
	$(MAKE) --no-print-directory jrec tests
	$(if $(call bench_on,report),scripts/bench)
	$(if $(filter annotate,$(BENCH_ONLY)),$(if $(filter report,$(BENCH_ONLY)),,BENCH_PARTS=annotate scripts/bench))
	$(if $(call bench_on,dwarf),scripts/bench-dwarf)
	$(if $(call bench_on,offcpu),scripts/bench-offcpu)
	$(if $(call bench_on,runtimes),scripts/bench-runtimes)
	$(if $(call bench_on,runtimes),scripts/bench-runtimes-guest)
	$(if $(call bench_on,top),scripts/bench-top)
	$(if $(call bench_on,guest),scripts/bench-guest)

dkms-install:
	scripts/dkms-install $(VERSION) $(KREL)

# Only the optimised jrec is built for this (not the sanitizer builds and the
# tests that `make jrec` builds too).
install:
	$(MAKE) --no-print-directory -C userspace BUILD=$(BUILD) PREFIX=$(PREFIX) install
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 Documentation/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 bash-completion/jrec $(DESTDIR)$(COMPLETIONDIR)/jrec

deb:
	scripts/build-deb

clean:
	$(MAKE) --no-print-directory -C userspace BUILD=$(BUILD) clean
	rm -rf $(BUILD)

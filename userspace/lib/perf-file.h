/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-disk layout of a perf.data file ("PERFILE2") as jrec writes and
 * reads it, and jrec's private feature sections.
 *
 * Layout: header | attrs (struct perf_file_attr each, then their id arrays) |
 * data (standard PERF_RECORD_* only) | feature sections, whose table of
 * struct perf_file_section sits right after the data section, one entry per
 * bit set in adds_features, in bit order.
 *
 * The data section holds only records stock perf knows. jmmap's records and
 * jrec's extras travel in sections with private ids after perf's feature
 * sections, listed in a table of their own (struct jrec_section_table) that
 * the header's event_types section points at, never in the feature bitmap:
 * see JREC_FEAT_FIRST. Documentation/jrec-data.rst describes them.
 */
#ifndef JREC_PERF_FILE_H
#define JREC_PERF_FILE_H

#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_FILE_MAGIC 0x32454c4946524550ULL /* "PERFILE2" in file byte order */
#define PERF_FILE_MAGIC_SWAPPED 0x50455246494c4532ULL

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

#define PERF_FILE_FEAT_BITS 256

struct perf_file_header {
	uint64_t magic;
	uint64_t size;      /* sizeof(struct perf_file_header) */
	uint64_t attr_size; /* size of one struct perf_file_attr as written */
	struct perf_file_section attrs;
	struct perf_file_section data;
	/* perf ignores it and writes zeros; jrec: its struct jrec_section_table */
	struct perf_file_section event_types;
	uint64_t adds_features[PERF_FILE_FEAT_BITS / 64];
};

/* One attribute: the perf_event_attr, then where its sample ids are. */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

/* Record types perf's tools add above the kernel's (data section only). */
#ifndef PERF_RECORD_FINISHED_ROUND
#define PERF_RECORD_FINISHED_ROUND 68 /* header only: a flush point for sorting */
#endif
#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15) /* BUILD_ID feature: size in build_id[20] */
#endif

/* Standard feature ids, as perf numbers them. */
enum perf_file_feature {
	PERF_FEAT_RESERVED = 0,
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_HOSTNAME = 3,
	PERF_FEAT_OSRELEASE = 4,
	PERF_FEAT_VERSION = 5,
	PERF_FEAT_ARCH = 6,
	PERF_FEAT_NRCPUS = 7,
	PERF_FEAT_CPUDESC = 8,
	PERF_FEAT_CPUID = 9,
	PERF_FEAT_TOTAL_MEM = 10,
	PERF_FEAT_CMDLINE = 11,
	PERF_FEAT_EVENT_DESC = 12,
	PERF_FEAT_CPU_TOPOLOGY = 13,
	PERF_FEAT_NUMA_TOPOLOGY = 14,
	PERF_FEAT_BRANCH_STACK = 15,
	PERF_FEAT_PMU_MAPPINGS = 16,
	PERF_FEAT_GROUP_DESC = 17,
	PERF_FEAT_AUXTRACE = 18,
	PERF_FEAT_STAT = 19,
	PERF_FEAT_CACHE = 20,
	PERF_FEAT_SAMPLE_TIME = 21,
	PERF_FEAT_MEM_TOPOLOGY = 22,
	PERF_FEAT_CLOCKID = 23,
	PERF_FEAT_DIR_FORMAT = 24,
	PERF_FEAT_BPF_PROG_INFO = 25,
	PERF_FEAT_BPF_BTF = 26,
	PERF_FEAT_COMPRESSED = 27,
	PERF_FEAT_CPU_PMU_CAPS = 28,
	PERF_FEAT_CLOCK_DATA = 29,
	PERF_FEAT_HYBRID_TOPOLOGY = 30,
	PERF_FEAT_PMU_CAPS = 31,
};

/*
 * Strings in standard features are stored as struct perf_file_string: a
 * u32 length (including the NUL and padding to 8) and the bytes.
 */
struct perf_file_string {
	uint32_t len;
	char str[];
};

/*
 * PERF_FEAT_BUILD_ID entries: a perf_event_header (misc carries the
 * cpumode, and PERF_RECORD_MISC_BUILD_ID_SIZE when build_id[20] holds the id
 * length), pid, the build-id in 24 bytes, then the NUL-terminated path padded
 * to 8; header.size covers it all.
 */
struct perf_file_build_id {
	struct perf_event_header header;
	int32_t pid;
	uint8_t build_id[24];
	char filename[];
};

/* ------------------------------------------------ jrec's private features */

/*
 * Private section ids: numbers high in the range of perf's 256 feature ids,
 * far from those perf assigns. Every private section starts with struct
 * jrec_feat_prefix so that a reader can check it is looking at what it
 * expects.
 *
 * They are not bits of the header's feature bitmap (as they were in older
 * recordings, which readers still take). perf's readers skip a feature bit they do not know, but its writer
 * does not: perf inject writes the input's feature bits back, and
 * do_write_feat() (tools/perf/util/header.c, 6.1 to 7.2) looks each set bit
 * up in its table of known features without a bound, reads past it and
 * crashes (SIGSEGV) on the first id past perf's last. So the private
 * sections follow perf's, and struct jrec_section_table lists them.
 */
#define JREC_FEAT_FIRST 200

enum jrec_feature {
	JREC_FEAT_INFO = JREC_FEAT_FIRST, /* text: "key=value\n" lines, see below */
	JREC_FEAT_JMMAP = 201,    /* jmmap records, concatenated as read */
	JREC_FEAT_JITDUMP = 202,  /* copies of jitdump files */
	JREC_FEAT_PERFMAP = 203,  /* perf-map lines with the time they appeared */
	JREC_FEAT_KALLSYMS = 204, /* /proc/kallsyms as read at record time */
	JREC_FEAT_FILES = 205,    /* what happened to each mapped file */
	JREC_FEAT_SYMTAB = 206,   /* stored symbol tables */
	JREC_FEAT_ARCHIVE = 207,  /* symbols and source lines of sampled files (jrec archive) */
	JREC_FEAT_CODE = 208,     /* code bytes of sampled perf-map JIT symbols, read from the process */
	JREC_FEAT_ARCHIVE_CODE = 209, /* code bytes of sampled functions of files (jrec archive) */
};

/*
 * Where the private sections are: the header's event_types section holds
 * this header, then nr struct jrec_section_ref, in id order, each id once.
 * A reader that finds another magic there (an old perf's event types, or
 * zeros) takes the file to have no such table.
 */
/*
 * Pipe mode (perf record -o -): a 16-byte header (PERF_FILE_MAGIC, its
 * size), then records only: each attr as PERF_RECORD_HEADER_ATTR, the
 * tracepoints' formats as PERF_RECORD_HEADER_TRACING_DATA (16 bytes: the
 * header, the payload's size padded to 8 and 4 zero bytes; the payload and
 * its padding follow the record), each feature known at the start as
 * PERF_RECORD_HEADER_FEATURE, the synthesized records, FINISHED_INIT, then
 * the data. The sections written at the end (BUILD_ID and jrec's own) go
 * into PERF_RECORD_HEADER_EVENT_TYPE records, which perf skips in a pipe
 * (a HEADER_FEATURE of an id perf does not know stops it): struct
 * jrec_pipe_section, then its piece of the section's bytes, the record
 * padded to 8. Documentation/jrec-data.rst.
 */
#define PERF_PIPE_HEADER_SIZE 16
#define PERF_RECORD_HEADER_ATTR 64
#define PERF_RECORD_HEADER_EVENT_TYPE 65
#define PERF_RECORD_HEADER_TRACING_DATA 66
#define PERF_RECORD_EVENT_UPDATE 78 /* an event's unit, scale, name or CPUs (perf's event.h) */
#define PERF_EVENT_UPDATE_SCALE 1    /* its type: the scale, a double */
#define PERF_RECORD_HEADER_FEATURE 80
#define PERF_RECORD_FINISHED_INIT 82

#define JREC_PIPE_SECTION_MAGIC 0x5350524Au /* "JRPS" in file byte order */
/* a piece's bytes at most: the record stays under the u16 size, 8-aligned */
#define JREC_PIPE_SECTION_PIECE 65472u

struct jrec_pipe_section {
	struct perf_event_header header; /* PERF_RECORD_HEADER_EVENT_TYPE */
	uint32_t magic;			 /* JREC_PIPE_SECTION_MAGIC */
	uint16_t feature;		 /* the section's id: perf's (BUILD_ID) or jrec's */
	uint16_t reserved;		 /* 0 */
	uint64_t offset;		 /* of this piece in the section */
	uint64_t total;			 /* the section's size */
	/* header.size - 32 bytes: min(total - offset, that) of them are the section's */
};

#define JREC_SECTIONS_MAGIC 0x544345534345524AULL /* "JRECSECT" in file byte order */
#define JREC_SECTIONS_VERSION 1

struct jrec_section_table {
	uint64_t magic;   /* JREC_SECTIONS_MAGIC */
	uint32_t version; /* JREC_SECTIONS_VERSION */
	uint32_t nr;      /* entries that follow */
};

struct jrec_section_ref {
	uint32_t id; /* enum jrec_feature: at least JREC_FEAT_FIRST, below PERF_FILE_FEAT_BITS */
	uint32_t pad;
	struct perf_file_section sec;
};

#define JREC_FEAT_MAGIC 0x4A524543u /* "JREC" */
#define JREC_FEAT_VERSION 1

struct jrec_feat_prefix {
	uint32_t magic;   /* JREC_FEAT_MAGIC */
	uint16_t version; /* JREC_FEAT_VERSION */
	uint16_t feature; /* the enum jrec_feature id, | JREC_FEAT_ZSTD when compressed */
};

/*
 * A compressed section: the prefix with JREC_FEAT_ZSTD set in its feature
 * field, this struct, then one zstd frame whose content is the payload the
 * section would have had uncompressed (raw_len bytes, at most
 * JREC_SECTION_MAX_RAW). A reader that does not know the flag sees another
 * id and skips the section.
 */
#define JREC_FEAT_ZSTD 0x8000u
#define JREC_SECTION_MAX_RAW (1ull << 32)

struct jrec_feat_zstd {
	uint64_t raw_len; /* bytes of the payload once decompressed */
};

/*
 * JREC_FEAT_INFO keys (text, one "key=value" a line, unknown keys ignored):
 *   mode=jmmap|fallback     fallback_reason=<one line>
 *   jmmap_abi=<n>           jmmap_version=<s>
 *   clockid=<n>             kernel_text=0x<hex>  (runtime address of _text)
 *   kernel_release=<s>      kernel_build_id=<hex>
 *   cmdline=<s>             hostname=<s>   nr_cpus=<n>
 *   mmap_records=jmmap      (the data section's MMAP2s of user space were
 *                            written from the JMMAP section's MMAP3s)
 */

/* JREC_FEAT_JITDUMP: entries, each followed by name and data, each padded to 8. */
struct jrec_jitdump_entry {
	uint32_t pid;
	uint32_t name_len; /* bytes of the NUL-terminated original path */
	uint64_t data_len; /* bytes of the jitdump copy */
	uint64_t time;     /* when the dump was mapped (CLOCK_MONOTONIC ns) */
};

/* JREC_FEAT_PERFMAP: one entry a line, followed by the text padded to 8. */
struct jrec_perfmap_entry {
	uint64_t time; /* when the line was first seen (CLOCK_MONOTONIC ns); 0 = unknown */
	uint32_t pid;  /* the pid as seen from the recorder */
	uint32_t len;  /* bytes of the line, without newline or NUL */
};

/* JREC_FEAT_FILES status values */
enum jrec_file_status {
	JREC_FILE_SAVED = 1,    /* copied into the build-id cache, cookie verified */
	JREC_FILE_CACHED = 2,   /* already in the cache */
	JREC_FILE_MISMATCH = 3, /* the file found had another cookie: not saved */
	JREC_FILE_VANISHED = 4, /* process gone before it could be saved */
	JREC_FILE_NO_COOKIE = 5,
	JREC_FILE_NOT_SAVED = 6, /* cookie verified, cache turned off (--no-buildid-cache) */
	JREC_FILE_FAILED = 7,    /* verified but the copy failed (disk full, permissions) */
};

/* JREC_FEAT_FILES: entries, each followed by the path padded to 8. */
struct jrec_file_entry {
	uint32_t pid;
	uint16_t status;      /* enum jrec_file_status */
	uint8_t cookie_kind;  /* enum jmmap_cookie_kind */
	uint8_t cookie_len;
	uint8_t cookie[20];
	uint32_t path_len;    /* bytes of the NUL-terminated path */
};

/*
 * JREC_FEAT_SYMTAB: the function symbols of mapped ELF files, the last
 * symbol source when no copy of a file is found. Entries, each followed by
 *   the NUL-terminated path, padded to 8;
 *   nr_loads struct jrec_symtab_load (the PT_LOAD layout, to turn file
 *   offsets into the addresses symbols use);
 *   nr_syms struct jrec_symtab_sym;
 *   strtab_len bytes of NUL-terminated names, padded to 8.
 * All sizes are checkable: name_off < strtab_len and the string table ends
 * with NUL. Little or big endian as the rest of the file.
 */
#define JREC_SYMTAB_MAX_LOADS 16

struct jrec_symtab_entry {
	uint8_t cookie_kind; /* enum jmmap_cookie_kind */
	uint8_t cookie_len;
	uint16_t nr_loads;   /* at most JREC_SYMTAB_MAX_LOADS */
	uint32_t path_len;   /* bytes of the NUL-terminated path */
	uint8_t cookie[20];
	uint32_t nr_syms;
	uint64_t strtab_len;
};

struct jrec_symtab_load {
	uint64_t offset, filesz, vaddr; /* p_offset, p_filesz, p_vaddr */
};

struct jrec_symtab_sym {
	uint64_t value; /* st_value: an address in the file's own layout */
	uint64_t size;  /* st_size */
	uint32_t name_off; /* into the entry's string table */
	uint8_t bind;      /* STB_* */
	uint8_t flags;     /* JREC_SYMTAB_SYM_* */
	uint8_t pad[2];
};

#define JREC_SYMTAB_SYM_PLT 1 /* a PLT entry: the name is the target's, shown as "name@plt" */

/*
 * JREC_FEAT_ARCHIVE (written by `jrec archive`): for every file that has
 * samples, the symbols the report found at the sampled addresses on the
 * recording machine, with their source lines where its debug info had them,
 * all names and file names in one shared string table. After the prefix:
 *   struct jrec_archive_header;
 *   nr_files struct jrec_archive_file;
 *   nr_loads struct jrec_symtab_load, each file's nr_loads in turn;
 *   nr_syms struct jrec_symtab_sym (name_off into the string table), each
 *   file's in turn;
 *   nr_lines struct jrec_archive_line, each file's in turn, sorted by addr;
 *   strtab_len bytes of NUL-terminated strings, padded to 8;
 * and, where some sampled address lies in inlined code, the inline scopes
 * (readers that predate them stop at the string table):
 *   struct jrec_archive_inlines;
 *   nr_files uint64_t, each file's number of addresses with inline scopes;
 *   nr_addrs struct jrec_archive_inline, each file's in turn, sorted by addr;
 *   nr_names uint32_t, each an offset into the string table: the functions
 *   inlined at each address, innermost first; padded to 8.
 * The files' counts add up to the header's; every offset is < strtab_len and
 * the string table ends with NUL.
 */
struct jrec_archive_header {
	uint32_t nr_files;
	uint32_t nr_loads;
	uint64_t nr_syms;
	uint64_t nr_lines;
	uint64_t strtab_len;
};

struct jrec_archive_file {
	uint8_t cookie_kind; /* enum jmmap_cookie_kind */
	uint8_t cookie_len;
	uint16_t flags;      /* JREC_ARCHIVE_F_* */
	uint32_t path_off;   /* the path the recording names, in the string table */
	uint8_t cookie[20];
	uint32_t nr_loads;   /* at most JREC_SYMTAB_MAX_LOADS */
	uint64_t nr_syms;
	uint64_t nr_lines;
};

#define JREC_ARCHIVE_F_FULL_SYMTAB 1 /* the symbols were a full .symtab, not .dynsym only */
#define JREC_ARCHIVE_F_KERNEL 2 /* the kernel or a module ("[name]"), at run-time addresses */
#define JREC_ARCHIVE_F_SYMBOLS 4 /* the file had symbols, sampled or not: not "stripped" */

/*
 * A source line from @addr up to the next entry's addr: line 0 means no line
 * (the end of a sequence or of a stored range).
 */
struct jrec_archive_inlines {
	uint64_t nr_addrs;
	uint64_t nr_names;
};

/* The functions inlined at addr: names [first_name, first_name + nr_names) of the section's. */
struct jrec_archive_inline {
	uint64_t addr;	     /* in the file's own layout, as symbols */
	uint32_t first_name;
	uint32_t nr_names;   /* at most ELF_INLINE_MAX */
};

struct jrec_archive_line {
	uint64_t addr;     /* in the file's own layout, as symbols */
	uint32_t file_off; /* the source file's name, in the string table */
	uint32_t line;
};

/*
 * JREC_FEAT_CODE (written by jrec record) and JREC_FEAT_ARCHIVE_CODE
 * (written by jrec archive): machine code, one entry per function, each
 * followed by its len bytes padded to 8; code-bytes.c writes and reads them.
 * CODE holds what the recorder read out of a process's memory for the
 * perf-map symbols that were sampled (JREC_CODE_PROCESS: pid, runtime
 * address, the time it was read); ARCHIVE_CODE the sampled functions of
 * mapped files by cookie and their address in the file's own layout
 * (JREC_CODE_FILE), or of the kernel at run-time addresses (JREC_CODE_KERNEL).
 */
#define JREC_CODE_MAX (1u << 20) /* one function's bytes above this: corrupt */

enum jrec_code_kind { JREC_CODE_PROCESS = 1, JREC_CODE_FILE = 2, JREC_CODE_KERNEL = 3 };

struct jrec_code_entry {
	uint64_t addr;	     /* where the code starts */
	uint64_t time;	     /* JREC_CODE_PROCESS: when it was read (CLOCK_MONOTONIC ns) */
	uint32_t pid;	     /* JREC_CODE_PROCESS: the process, as the recorder saw it */
	uint32_t len;	     /* bytes of code that follow, at most JREC_CODE_MAX */
	uint16_t machine;    /* EM_* of the code */
	uint8_t kind;	     /* enum jrec_code_kind */
	uint8_t cookie_kind; /* JREC_CODE_FILE: enum jmmap_cookie_kind */
	uint8_t cookie_len;
	uint8_t pad[3];
	uint8_t cookie[20];
	uint32_t pad2;
};

#endif /* JREC_PERF_FILE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-reader: read a perf.data file ("PERFILE2"), as written by `perf record`
 * or `jrec record`, in either byte order.
 *
 * The reader maps the file (or takes a caller's buffer), checks the header,
 * the attributes and their ids, and then hands out one decoded event at a
 * time. Every length is checked against the bytes left; a record that does not
 * fit ends the data section and marks the recording as cut short. Decoded
 * fields are in host byte order; strings point into the file and are known to
 * be NUL-terminated within their record.
 */
#ifndef JREC_PERF_READER_H
#define JREC_PERF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "byteorder.h"
#include "perf-file.h"

struct perf_reader;

/* One attribute as the reader understood it. */
struct pr_attr {
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t sample_period; /* or sample_freq when freq */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	bool freq;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_idle, exclude_host, exclude_guest;
	uint8_t precise_ip;
	bool sample_id_all;
	bool use_clockid;
	uint32_t clockid;
	uint16_t id_sample_size; /* bytes of the sample_id_all trailer */
	char name[64];           /* "cpu-clock", "cycles", ... best effort */
	/*
	 * perf's GROUP_DESC: the index of the group's leader (its own for a
	 * leader, SIZE_MAX outside any group), and in a leader the number of
	 * members (itself included) and the group's name ("" for an anonymous
	 * one, `-e '{a,b}'`)
	 */
	size_t group_leader;
	uint32_t group_members;
	char group_name[64];
};

/* Fields that samples carry and that sample_id_all appends to other records. */
struct pr_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu;
	bool has_time;
};

struct pr_sample {
	uint64_t ip;
	uint64_t addr;
	uint64_t period;
	uint64_t nr_callchain;
	const void *callchain; /* nr_callchain u64s in file order; use pr_callchain_at() */
	/* PERF_SAMPLE_REGS_USER: the user registers of attr->sample_regs_user, in bit order */
	uint64_t regs_abi; /* PERF_SAMPLE_REGS_ABI_*, 0: none (a kernel thread) */
	unsigned int nr_regs;
	const void *regs; /* nr_regs u64s in file order */
	/* PERF_SAMPLE_STACK_USER: a copy of the user stack from the stack pointer up */
	uint64_t stack_size; /* the bytes of stack that hold data (the dynamic size) */
	const void *stack;
	/* PERF_SAMPLE_BRANCH_STACK: nr_branches perf_branch_entry (from, to, flags) */
	uint64_t nr_branches;
	const void *branches; /* in file order; use pr_branch_at() */
	/* PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT's first 32 bits (its var1_dw) */
	uint64_t weight;
	uint16_t ins_lat; /* WEIGHT_STRUCT's var2_w: the instruction latency */
	uint64_t data_src; /* PERF_SAMPLE_DATA_SRC: union perf_mem_data_src */
	/* PERF_SAMPLE_REGS_INTR: the registers of attr->sample_regs_intr at the interrupt */
	uint64_t iregs_abi; /* 0: none */
	const void *iregs;  /* popcount(sample_regs_intr) u64s in file order */
	uint64_t phys_addr; /* PERF_SAMPLE_PHYS_ADDR */
	uint64_t data_page_size, code_page_size; /* PERF_SAMPLE_{DATA,CODE}_PAGE_SIZE */
	/* PERF_SAMPLE_RAW: a tracepoint's record (its fields, in the recording machine's order) */
	const void *raw;
	uint32_t raw_size;
	/*
	 * PERF_SAMPLE_READ: the counters' values (one, or a group's), each
	 * read_stride u64s in file order starting with the value; its id the
	 * read_id_at'th of them (0: read_format has no ids)
	 */
	const void *read;
	uint64_t read_nr;
	uint32_t read_stride, read_id_at;
	bool swapped; /* the file's byte order is not the host's: for the accessors below */
};

struct pr_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id[20];
	uint8_t build_id_size; /* > 0 when the record carries a build-id */
	bool is_mmap2;
	const char *filename;
};

/*
 * A MMAP or MMAP2 record of @size bytes in the host's byte order, as the
 * recorder reads it from its ring buffers, whose last @trailer bytes are its
 * sample_id. 0 or -EBADMSG. (The reader decodes its records the same way.)
 */
int perf_records__decode_mmap(const void *rec, size_t size, size_t trailer, struct pr_mmap *out);

/*
 * The MMAP2 record of @mm (its filename included) into @out, @cap bytes, in
 * the host's byte order, followed by the @trailer_len bytes of sample_id at
 * @trailer: with the build-id (PERF_RECORD_MISC_MMAP_BUILD_ID added to
 * @misc) when mm->build_id_size, else with device, inode and generation; the
 * name padded to 8 bytes. Returns the record's size, -EINVAL when the
 * build-id is longer than 20 bytes, or -E2BIG when the record does not fit
 * in @cap or in a record's 16-bit size.
 */
int perf_records__encode_mmap2(const struct pr_mmap *mm, uint16_t misc, const void *trailer,
			       size_t trailer_len, void *out, size_t cap);

/*
 * Where perf_records__encode_mmap2() puts the fields that differ between two
 * mappings of the same name: byte offsets from the record's start. A writer
 * that makes many alike (jrec's anonymous code) encodes one and changes these.
 */
#define PR_MMAP2_OFF_PID 8
#define PR_MMAP2_OFF_TID 12
#define PR_MMAP2_OFF_START 16
#define PR_MMAP2_OFF_LEN 24
#define PR_MMAP2_OFF_PGOFF 32
#define PR_MMAP2_OFF_PROT 64
#define PR_MMAP2_OFF_FLAGS 68

struct pr_comm {
	uint32_t pid, tid;
	bool exec; /* PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;
};

struct pr_task { /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pr_lost {
	uint64_t id, lost;
};

/* EVENT_UPDATE: the scale of the event with sample id @id (scale_set), perf stat's unit factor */
struct pr_event_update {
	uint64_t id;
	double scale;
	bool scale_set;
};

/* SWITCH_CPU_WIDE: the task coming in (after a switch-out) or the one that left (a switch-in) */
struct pr_switch {
	uint32_t next_prev_pid, next_prev_tid;
};

struct pr_event {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint64_t offset; /* of the record in the file */
	const struct pr_attr *attr; /* NULL for records of no event */
	struct pr_sample_id id;     /* from the sample or the sample_id_all trailer */
	union {
		struct pr_sample sample;
		struct pr_mmap mmap;
		struct pr_comm comm;
		struct pr_task task;
		struct pr_lost lost;
		struct pr_switch sw;
		struct pr_event_update update;
	};
	const void *raw; /* the whole record, in file byte order */
};

/* Why reading stopped early; perf_reader__cut_short() returns one. */
enum pr_cut {
	PR_CUT_NONE = 0,
	PR_CUT_NO_DATA_SIZE, /* header says data.size == 0: the writer never finished */
	PR_CUT_SHORT_FILE,   /* the file ends inside the data section */
	PR_CUT_BAD_RECORD,   /* a record's size is impossible; the rest is unreadable */
	PR_CUT_NO_FEATURES,  /* no feature sections: the recorder never finalised the file */
	PR_CUT_SHORT_FEATURES, /* the file ends inside the feature sections after the data */
};

/*
 * Open @path. Returns 0 or a negative errno; on -EINVAL (not a recording) or
 * -EBADMSG (corrupt), perf_reader__error() holds a one-line reason even when
 * *out is NULL, through @errbuf (may be NULL) of @errlen bytes.
 */
int perf_reader__open(const char *path, struct perf_reader **out, char *errbuf, size_t errlen);
/* The same over a caller's buffer, which must outlive the reader. */
int perf_reader__open_mem(const void *buf, size_t len, struct perf_reader **out, char *errbuf,
			  size_t errlen);
void perf_reader__close(struct perf_reader *r);

typedef int (*pr_event_fn)(const struct pr_event *ev, void *ctx);
/*
 * Call @fn for each record of the data section in file order. A non-zero
 * return from @fn stops the walk and is returned. Records that are not
 * understood are still passed on (with their type), unless they are too short
 * for their type, which counts them in perf_reader__nr_bad().
 */
int perf_reader__for_each_event(struct perf_reader *r, pr_event_fn fn, void *ctx);

/*
 * Decode the whole record at @rec, in file byte order (a copy of a walk's
 * ev->raw, ev->size bytes), found at file offset @off, into @ev, which
 * points into @rec. 0 or -EBADMSG.
 */
int perf_reader__decode(const struct perf_reader *r, const void *rec, uint64_t off,
			struct pr_event *ev);

/*
 * Let for_each_event() step over samples without decoding or passing them;
 * kernel-mode samples are still passed (a report's first pass starts loading
 * kernel symbols when it sees one).
 */
void perf_reader__skip_samples(struct perf_reader *r, bool skip);
bool perf_reader__swapped(const struct perf_reader *r);
enum pr_cut perf_reader__cut_short(const struct perf_reader *r);
const char *pr_cut_str(enum pr_cut cut);
uint64_t perf_reader__nr_bad(const struct perf_reader *r);
size_t perf_reader__nr_attrs(const struct perf_reader *r);
const struct pr_attr *perf_reader__attr(const struct perf_reader *r, size_t i);
/* The attr whose ids include @id (a sample's or a read counter's), NULL when none; the one attr of a file of one. */
const struct pr_attr *perf_reader__attr_by_id(const struct perf_reader *r, uint64_t id);
uint64_t perf_reader__data_size(const struct perf_reader *r);
uint64_t perf_reader__data_offset(const struct perf_reader *r);

/* The bytes of feature @feat, or -ENOENT. Private sections keep their prefix. */
int perf_reader__feature(const struct perf_reader *r, unsigned int feat, const void **data,
			 size_t *len);
/* A standard string feature (HOSTNAME, OSRELEASE, ARCH, VERSION, CPUDESC), or NULL. */
const char *perf_reader__feature_string(const struct perf_reader *r, unsigned int feat, char *buf,
					size_t len);

/* Host-order accessors for data in file byte order. */
uint16_t perf_reader__u16(const struct perf_reader *r, const void *p);
uint32_t perf_reader__u32(const struct perf_reader *r, const void *p);
uint64_t perf_reader__u64(const struct perf_reader *r, const void *p);

static inline uint64_t pr_callchain_at(const struct perf_reader *r, const struct pr_sample *s,
				       uint64_t i)
{
	(void)r;
	return bo_u64((const uint8_t *)s->callchain + i * 8, s->swapped);
}

/* The @i-th recorded user register (in sample_regs_user's bit order), host order. */
static inline uint64_t pr_reg_at(const struct perf_reader *r, const struct pr_sample *s,
				 unsigned int i)
{
	(void)r;
	return bo_u64((const uint8_t *)s->regs + i * 8, s->swapped);
}

/* The @i-th register of @regs (a sample's user or interrupt registers), host order. */
static inline uint64_t pr_regs_at(const struct pr_sample *s, const void *regs, unsigned int i)
{
	return bo_u64((const uint8_t *)regs + i * 8, s->swapped);
}

/* The @i-th entry of the sample's branch stack: where from, where to, its cycles (0: unknown). */
static inline void pr_branch_at(const struct pr_sample *s, uint64_t i, uint64_t *from,
				uint64_t *to, uint16_t *cycles)
{
	const uint8_t *e = (const uint8_t *)s->branches + i * 24;
	uint64_t flags = bo_u64(e + 16, s->swapped);

	*from = bo_u64(e, s->swapped);
	*to = bo_u64(e + 8, s->swapped);
	/* mispred, predicted, in_tx, abort: one bit each, then cycles: 16 (from the low end) */
	*cycles = s->swapped ? 0 : (uint16_t)(flags >> 4);
}

/* The @i-th branch entry's flags word (perf_branch_entry's bit fields, in the host's order). */
static inline uint64_t pr_branch_flags_at(const struct pr_sample *s, uint64_t i)
{
	return bo_u64((const uint8_t *)s->branches + i * 24 + 16, s->swapped);
}

typedef int (*pr_build_id_fn)(int32_t pid, uint16_t misc, const uint8_t *id, size_t id_len,
			      const char *filename, void *ctx);
/* Walk the standard BUILD_ID feature. */
int perf_reader__for_each_build_id(const struct perf_reader *r, pr_build_id_fn fn, void *ctx);

/* A private feature's payload after its struct jrec_feat_prefix, checked. */
int perf_reader__jrec_feature(const struct perf_reader *r, unsigned int feat, const void **data,
			      size_t *len);

#endif /* JREC_PERF_READER_H */

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * jmmap: the record and ioctl ABI between the jmmap kernel module and its
 * readers (jrec). This is the only header the two sides share.
 *
 * Rules that keep it an ABI:
 *  - fixed-width fields only, explicit padding, no pointers, no kernel
 *    addresses;
 *  - every record starts with struct jmmap_rec_header {type, size}; size
 *    covers the whole record, is a multiple of 8, and a reader skips types it
 *    does not know by size alone;
 *  - every ioctl argument starts with a __u32 size that the caller fills with
 *    sizeof() as it knows it, so structures can grow at the end;
 *  - growing never moves a field: no array in a record or an ioctl argument
 *    is sized by a constant that grows with the ABI (JMMAP_REC_MAX grows
 *    with each new record type). Counts by record type travel in arrays of
 *    JMMAP_REC_SLOTS, which never changes; new fields go after them. A
 *    reader takes how many slots a LOST record has from its size, and which
 *    layout a stats answer has from the size the module wrote back, and
 *    still reads the first layouts (JMMAP_*_SIZE_V1);
 *  - JMMAP_ABI_VERSION changes only for incompatible changes; additions are
 *    announced through feature bits.
 *
 * All times are CLOCK_MONOTONIC nanoseconds, taken when the event happened.
 * Documentation/mmap3.rst describes every field.
 */
#ifndef _UAPI_LINUX_JMMAP_H
#define _UAPI_LINUX_JMMAP_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define JMMAP_ABI_VERSION 1
#define JMMAP_DEVICE_NAME "jmmap"

/*
 * read() returns whole records only, and fails with EINVAL when the next
 * record does not fit the buffer; a buffer of this size always holds one.
 */
#define JMMAP_READ_SIZE_MIN 8192

/* ---------------------------------------------------------------- records */

enum jmmap_rec_type {
	JMMAP_REC_MMAP3 = 1,
	JMMAP_REC_MUNMAP = 2,
	JMMAP_REC_EXEC = 3,
	JMMAP_REC_FORK = 4,
	JMMAP_REC_EXIT = 5,
	JMMAP_REC_LOST = 6,
	JMMAP_REC_MAX /* one past the last type; grows: size no array of the ABI by it */
};

/*
 * Slots of the arrays of counts by record type (jmmap_rec_lost.lost,
 * jmmap_stats.emitted and .lost), indexed by type, [0] unused: fixed for
 * good, with room for types to come. The first layouts had
 * JMMAP_REC_SLOTS_V1 (what JMMAP_REC_MAX then was); modules wrote them
 * until the arrays got their fixed size, and readers still take them.
 */
#define JMMAP_REC_SLOTS 16
#define JMMAP_REC_SLOTS_V1 7

struct jmmap_rec_header {
	__u16 type;  /* enum jmmap_rec_type */
	__u16 flags; /* per type; 0 where unused */
	__u32 size;  /* bytes of the whole record, header included, multiple of 8 */
};

/* Why a mapping record was emitted (jmmap_rec_mmap3.cause). */
enum jmmap_cause {
	JMMAP_CAUSE_MMAP = 1,     /* mmap() created it */
	JMMAP_CAUSE_MPROTECT = 2, /* mprotect() made the range executable */
	JMMAP_CAUSE_EXEC = 3,     /* mapped by the ELF loader during exec */
	JMMAP_CAUSE_BRK = 4,      /* brk() grew an executable heap */
	JMMAP_CAUSE_SNAPSHOT = 5, /* existed when the pid was added to the session */
	JMMAP_CAUSE_MREMAP = 6,   /* mremap() moved or grew an executable mapping */
};

/* What the cookie bytes are (jmmap_rec_mmap3.cookie_kind). */
enum jmmap_cookie_kind {
	JMMAP_COOKIE_NONE = 0,    /* anonymous, or the file could not be read */
	JMMAP_COOKIE_ELF_BUILD_ID = 1, /* the GNU build-id note, as readelf -n shows it */
	JMMAP_COOKIE_CONTENT = 2, /* content cookie, see JMMAP_CONTENT_COOKIE_* */
};

#define JMMAP_COOKIE_MAX 20

/*
 * Where the build-id is looked for: the notes of the PT_NOTE segments, then
 * of the SHT_NOTE sections, in file order, at most the first
 * JMMAP_COOKIE_NOTE_BLOCK_MAX bytes of each, and no more than
 * JMMAP_COOKIE_NOTES_MAX bytes of notes in all (a block is counted for the
 * bytes looked at). A build-id note past them is not seen: the file gets
 * the content cookie.
 */
#define JMMAP_COOKIE_NOTE_BLOCK_MAX (64 * 1024)
#define JMMAP_COOKIE_NOTES_MAX (256 * 1024)

/*
 * Content cookie, for files without a build-id: the first 20 bytes of
 * SHA-256 over
 *     the 16 bytes of JMMAP_CONTENT_COOKIE_TAG (NUL-padded),
 *     the file size as 8 bytes little endian,
 *     the first min(size, 4096) bytes of the file,
 *     the last min(size, 4096) bytes of the file.
 * (A file of 4096 bytes or less is thus hashed twice; that is intended.)
 */
#define JMMAP_CONTENT_COOKIE_TAG "jmmap-content-1"
#define JMMAP_CONTENT_COOKIE_TAG_LEN 16
#define JMMAP_CONTENT_COOKIE_EDGE 4096

/*
 * Why a file-backed MMAP3 or EXEC has no cookie (JMMAP_COOKIE_NONE): the
 * low bits of hdr.flags. 0 also for anonymous memory and for files that
 * are not regular.
 */
#define JMMAP_COOKIE_WHY_MASK 0x7
enum jmmap_cookie_why {
	JMMAP_COOKIE_WHY_ERROR = 1,      /* reading the file failed */
	JMMAP_COOKIE_WHY_NOT_CACHED = 2, /* read only from the page cache (remote, user-space
					  * or memory filesystem, a device user space or a
					  * server may serve), and not there */
	JMMAP_COOKIE_WHY_WITHHELD = 3,   /* the session's opener may not read the file */
	JMMAP_COOKIE_WHY_UNREADABLE = 4, /* mapped without read access */
	JMMAP_COOKIE_WHY_NOT_READ = 5,   /* a filesystem whose files are never read: secret
					  * memory (memfd_secret), memory without a direct
					  * map, special filesystems */
};

/*
 * MMAP3: exactly the range one call mapped or made executable, never the
 * merged vma; the merged vma's bounds travel beside it for diagnosis.
 * Followed by the NUL-terminated file name ("//anon" for anonymous memory),
 * padded with NULs to the record size.
 */
struct jmmap_rec_mmap3 {
	struct jmmap_rec_header hdr;
	__u32 pid; /* thread group id */
	__u32 tid;
	__u64 time;
	__u64 start; /* what this call mapped or changed */
	__u64 len;
	__u64 vma_start; /* the vma after any merge, for diagnosis */
	__u64 vma_end;
	__u64 pgoff; /* file offset of start, in bytes */
	__u32 prot;  /* PROT_* after the call */
	__u32 flags; /* MAP_* (MAP_SHARED/MAP_PRIVATE, MAP_ANONYMOUS, ...) */
	__u32 dev_major;
	__u32 dev_minor;
	__u64 ino;
	__u64 ino_generation;
	__u16 cause; /* enum jmmap_cause */
	__u8 cookie_kind; /* enum jmmap_cookie_kind */
	__u8 cookie_len;  /* valid bytes in cookie[] */
	__u8 cookie[JMMAP_COOKIE_MAX];
	char filename[]; /* NUL-terminated, padded to a multiple of 8 */
};

/* Why executable code went away (jmmap_rec_munmap.cause). */
enum jmmap_unmap_cause {
	JMMAP_UNMAP_MUNMAP = 1,    /* munmap() */
	JMMAP_UNMAP_MREMAP = 2,    /* mremap() moved or shrank it */
	JMMAP_UNMAP_MAP_FIXED = 3, /* a MAP_FIXED mapping replaced it */
	JMMAP_UNMAP_MPROTECT = 4,  /* mprotect() took PROT_EXEC away */
};

struct jmmap_rec_munmap {
	struct jmmap_rec_header hdr;
	__u32 pid;
	__u32 tid;
	__u64 time;
	__u64 start;
	__u64 len;
	__u32 cause; /* enum jmmap_unmap_cause */
	__u32 __reserved;
};

/* EXEC: the process image was replaced; its executable's cookie and path. */
struct jmmap_rec_exec {
	struct jmmap_rec_header hdr;
	__u32 pid;
	__u32 tid;
	__u64 time;
	__u32 dev_major;
	__u32 dev_minor;
	__u64 ino;
	__u64 ino_generation;
	char comm[16];
	__u8 cookie_kind;
	__u8 cookie_len;
	__u8 cookie[JMMAP_COOKIE_MAX];
	__u8 __reserved[2];
	char filename[]; /* NUL-terminated, padded to a multiple of 8 */
};

/* hdr.flags of FORK and EXIT */
#define JMMAP_FORK_THREAD 0x1 /* a new thread (CLONE_THREAD), not a process */
#define JMMAP_EXIT_THREAD 0x1 /* a thread ended; the process lives on */

struct jmmap_rec_fork {
	struct jmmap_rec_header hdr;
	__u32 pid; /* the child's thread group id */
	__u32 tid; /* the child's thread id */
	__u32 ppid;
	__u32 ptid;
	__u64 time;
};

struct jmmap_rec_exit {
	struct jmmap_rec_header hdr;
	__u32 pid;
	__u32 tid;
	__u64 time;
};

/*
 * LOST: records dropped since the previous LOST, by record type. A reader
 * takes min((hdr.size - 16) / 8, JMMAP_REC_SLOTS) slots: the first layout
 * (JMMAP_REC_LOST_SIZE_V1 bytes) had JMMAP_REC_SLOTS_V1.
 */
struct jmmap_rec_lost {
	struct jmmap_rec_header hdr;
	__u64 time; /* when this LOST record was queued */
	__u64 lost[JMMAP_REC_SLOTS]; /* indexed by enum jmmap_rec_type; [0] unused */
};
#define JMMAP_REC_LOST_SIZE_V1 (16 + 8 * JMMAP_REC_SLOTS_V1)

/* ----------------------------------------------------------------- ioctls */

#define JMMAP_IOC_MAGIC 0xE7

/* Feature bits reported by JMMAP_IOC_VERSION. */
#define JMMAP_FEAT_MMAP3 (1ULL << 0)      /* MMAP3 records */
#define JMMAP_FEAT_MUNMAP (1ULL << 1)     /* MUNMAP records */
#define JMMAP_FEAT_PROC_TREE (1ULL << 2)  /* EXEC/FORK/EXIT records */
#define JMMAP_FEAT_SNAPSHOT (1ULL << 3)   /* SNAPSHOT on JMMAP_IOC_ADD_PID */
#define JMMAP_FEAT_COOKIE_ELF (1ULL << 4) /* ELF build-id cookies */
#define JMMAP_FEAT_COOKIE_CONTENT (1ULL << 5) /* content cookies */
#define JMMAP_FEAT_SYSTEM_WIDE (1ULL << 6)    /* JMMAP_TARGET_SYSTEM_WIDE */
#define JMMAP_FEAT_DATA_MMAPS (1ULL << 7)     /* JMMAP_CONFIG_DATA_MMAPS */
#define JMMAP_FEAT_WAKEUP_BYTES (1ULL << 8)   /* jmmap_config.wakeup_bytes */
#define JMMAP_FEAT_MMAP_RING (1ULL << 9)      /* the ring mapped (struct jmmap_ring_page) */

struct jmmap_version {
	__u32 size; /* in: sizeof(struct jmmap_version) as the caller knows it */
	__u32 abi_version; /* out: JMMAP_ABI_VERSION */
	__u64 features; /* out: JMMAP_FEAT_* */
	char module_version[32]; /* out: NUL-terminated */
};

/* jmmap_target.flags */
#define JMMAP_TARGET_SYSTEM_WIDE 0x1 /* every process; pid must be 0 */
#define JMMAP_TARGET_NO_SNAPSHOT 0x2 /* do not emit SNAPSHOT records */

struct jmmap_target {
	__u32 size;
	__u32 pid; /* thread group to trace, with its future descendants */
	__u64 flags;
};

/* jmmap_config.flags */
#define JMMAP_CONFIG_DATA_MMAPS 0x1 /* also report non-executable mappings */

struct jmmap_config {
	__u32 size;
	__u32 wakeup_bytes; /* wake readers once this many bytes are queued; 0: at
			     * every record (also what a module before this field did) */
	__u64 flags;
	__u64 buffer_bytes; /* 0 keeps the current size */
};

/*
 * The module writes back the size of the layout it answers in: this one
 * when the caller's size holds it, else the first one (JMMAP_STATS_SIZE_V1
 * bytes: size, __reserved, then emitted and lost of JMMAP_REC_SLOTS_V1
 * each), which is all a module before JMMAP_REC_SLOTS writes.
 */
struct jmmap_stats {
	__u32 size;
	__u32 __reserved;
	__u64 emitted[JMMAP_REC_SLOTS]; /* queued for this session, by type */
	__u64 lost[JMMAP_REC_SLOTS];    /* dropped for a full buffer, by type, since open */
};
#define JMMAP_STATS_SIZE_V1 (8 + 2 * 8 * JMMAP_REC_SLOTS_V1)

/*
 * The ring, mapped: mmap() of the session's descriptor, MAP_SHARED, offset
 * 0, one page and then the ring's buffer_bytes (a power of two). The first
 * page starts with this; the records follow in the next, as read() would
 * return them, from position data_tail to data_head (free-running byte
 * positions, the buffer index being the position modulo data_size), a
 * record possibly wrapping at the buffer's end. The reader loads data_head
 * with acquire semantics, takes the records, then stores data_tail with
 * release semantics; the module never writes the bytes between the two,
 * and takes a data_tail that is not a multiple of 8 at most data_size below
 * data_head as a full ring. read() may be used as well; it moves data_tail
 * the same way. Once mapped, the buffer's size cannot change. Mapping for
 * writing (data_tail) needs the descriptor opened read-write.
 */
struct jmmap_ring_page {
	__u64 data_head; /* written by the module */
	__u64 data_tail; /* written by the reader */
	__u64 data_offset; /* where the records start: one page */
	__u64 data_size;
};

#define JMMAP_IOC_VERSION _IOWR(JMMAP_IOC_MAGIC, 0x01, struct jmmap_version)
#define JMMAP_IOC_CONFIG _IOW(JMMAP_IOC_MAGIC, 0x02, struct jmmap_config)
#define JMMAP_IOC_ADD_TARGET _IOW(JMMAP_IOC_MAGIC, 0x03, struct jmmap_target)
#define JMMAP_IOC_GET_STATS _IOWR(JMMAP_IOC_MAGIC, 0x04, struct jmmap_stats)

#endif /* _UAPI_LINUX_JMMAP_H */

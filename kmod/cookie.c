// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap cookies, kernel side. The rule is the one userspace follows
 * (userspace/lib/cookie.c):
 *   - a little-endian ELF file whose PT_NOTE segments, or else SHT_NOTE
 *     sections, hold an NT_GNU_BUILD_ID "GNU" note of 1..20 bytes is named
 *     by the first such note, looked for in a bounded number of bytes
 *     (JMMAP_COOKIE_NOTE_BLOCK_MAX, JMMAP_COOKIE_NOTES_MAX in jmmap.h);
 *   - any other file by the content cookie of jmmap.h (SHA-256 over a tag,
 *     the size and the first and last 4 KiB, cut to 20 bytes).
 * Files are read through their page cache, never with kernel_read(): a read
 * through the VFS passes rw_verify_area(), where an LSM's file_permission
 * hook and a fanotify FAN_ACCESS_PERM listener are asked (the traced task
 * would wait on a daemon, a permission daemon that maps a file it watches on
 * itself), an O_DIRECT descriptor's alignment rules apply and the access
 * time moves. A file on a filesystem whose block device the kernel serves
 * itself (a disk, not loop, NBD or ublk, which user space or a server
 * answers) is read with read_mapping_folio(), so the note is found wherever
 * it is and whether or not the page cache has seen the file. Any other file
 * that is read at all (remote and user-space filesystems, memory
 * filesystems, a filesystem on any other device) is read only from pages
 * already up to date in the page cache: the traced task never waits on a
 * server or a user-space daemon (a FUSE daemon that maps a file of its own
 * mount would wait on itself). A file on any other filesystem is not read at
 * all: its pages may be none the kernel can touch (memfd_secret() removes
 * them from the direct map, guest_memfd may hold guest-private memory), or
 * not in the page cache (DAX).
 *
 * Results are cached per inode (device, inode number) and trusted while the
 * inode's generation, change time and size are those seen when computing,
 * and only if that change time was at least a second older than the
 * computation, so that a file rewritten within one timestamp tick is never
 * served a stale cookie. A read error is not absence: nothing is cached
 * after one. Nothing is cached, or taken from the cache, where the change
 * time cannot tell: on memory filesystems (tmpfs, memfd), and while the
 * file has shared writable mappings.
 */
#include <crypto/hash.h>
#include <linux/blkdev.h>
#include <linux/elf.h>
#include <linux/hashtable.h>
#include <linux/highmem.h>
#include <linux/magic.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "cookie.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

#define PHNUM_MAX 512
#define SHNUM_MAX 4096
#define CACHE_MAX 2048

struct cache_entry {
	struct hlist_node hnode;
	struct list_head lru;
	dev_t dev;
	unsigned long ino;
	u32 generation;
	s64 ctime_sec;
	u32 ctime_nsec;
	loff_t size;
	struct jmmap_cookie cookie;
};

static struct crypto_shash *sha256;
static DEFINE_MUTEX(cache_mutex);
static DEFINE_HASHTABLE(cache, 10);
static LIST_HEAD(cache_lru);
static unsigned int cache_count;

/* How the cookie of a file is read. */
enum read_how {
	READ_NONE,   /* not at all */
	READ_CACHED, /* from up-to-date page-cache folios only */
	READ_PAGES,  /* through the page cache, reading what it lacks */
};

/* A file being read for its cookie. */
struct source {
	struct file *file;
	loff_t size;
	enum read_how how;
};

/*
 * Remote and user-space filesystems whose page cache holds the file's bytes
 * as read() gives them, in ordinary memory: read from the page cache only.
 */
static bool fs_is_remote(unsigned long magic)
{
	switch (magic) {
	case NFS_SUPER_MAGIC:
	case FUSE_SUPER_MAGIC: /* fuseblk too: still served by a daemon */
	case SMB2_SUPER_MAGIC:
	case CIFS_SUPER_MAGIC:
	case CEPH_SUPER_MAGIC:
	case V9FS_MAGIC:
	case AFS_FS_MAGIC:
	case AFS_SUPER_MAGIC:
	case CODA_SUPER_MAGIC:
		return true;
	}
	return false;
}

/*
 * Whether the kernel itself serves the block device under @sb, so that a
 * read waits on a disk at worst: by the names of the drivers of disks,
 * memory and the kernel's own stacking (device mapper and md, as their
 * administrator stacked them). Not loop (its backing file may be on FUSE or
 * NFS), NBD, ublk, rbd, DRBD or any device not named here: they may wait on
 * user space or a server.
 */
static bool disk_is_local(const struct super_block *sb)
{
	static const char *const local[] = { "sd", "vd", "nvme", "hd", "mmcblk", "xvd",
					     "pmem", "zram", "sr", "dm-", "md" };
	const char *name;
	unsigned int i;

	if (!sb->s_bdev || !sb->s_bdev->bd_disk)
		return false;
	name = sb->s_bdev->bd_disk->disk_name;
	for (i = 0; i < ARRAY_SIZE(local); i++)
		if (!strncmp(name, local[i], strlen(local[i])))
			return true;
	return false;
}

/*
 * Read through the page cache on a block filesystem the kernel serves, from
 * the page cache only on the other block filesystems, on remote and
 * user-space ones and on memory ones (tmpfs, ramfs; their pages are all
 * there unless swapped out); nothing else, and never a file whose pages the
 * kernel may not touch or that has no page cache, whatever its filesystem.
 */
static enum read_how fs_read_how(struct file *file)
{
	const struct inode *inode = file_inode(file);
	const struct super_block *sb = inode->i_sb;

	if (sb->s_magic == SECRETMEM_MAGIC || jmmap_mapping_no_direct_map(file->f_mapping) ||
	    IS_DAX(inode))
		return READ_NONE;
	if (fs_is_remote(sb->s_magic))
		return READ_CACHED;
	if (sb->s_type->fs_flags & FS_REQUIRES_DEV)
		return disk_is_local(sb) && file->f_mapping->a_ops->read_folio ? READ_PAGES :
										 READ_CACHED;
	if (sb->s_magic == TMPFS_MAGIC || sb->s_magic == RAMFS_MAGIC)
		return READ_CACHED;
	return READ_NONE;
}

/*
 * Whether a change of contents moves the change time. Not on memory
 * filesystems (tmpfs, /dev/shm, memfd): their pages are never cleaned, so a
 * shared mapping's page stays writable after its first write fault and
 * later writes through it touch no time. Block filesystems write pages back
 * and write-protect them again, so each new write faults and updates it.
 */
static bool ctime_tells(const struct super_block *sb)
{
	return sb->s_magic != FUSE_SUPER_MAGIC && (sb->s_type->fs_flags & FS_REQUIRES_DEV);
}

/*
 * Copy [pos, pos + len) of @src from its page cache: from up-to-date folios
 * only (-EAGAIN if one is not there), or reading those it lacks
 * (READ_PAGES). No LSM hook, fanotify event or access time on the way.
 */
static int read_exact(const struct source *src, void *buf, size_t len, loff_t pos)
{
	struct address_space *mapping = src->file->f_mapping;
	u8 *dst = buf;

	while (len) {
		pgoff_t index = pos >> PAGE_SHIFT;
		struct folio *folio;
		size_t in_folio, n;
		void *from;

		if (src->how == READ_PAGES) {
			folio = read_mapping_folio(mapping, index, src->file);
			if (IS_ERR(folio))
				return PTR_ERR(folio);
		} else {
			folio = filemap_get_folio(mapping, index);
			/* NULL before 6.3, an error pointer since, when absent. */
			if (IS_ERR_OR_NULL(folio))
				return -EAGAIN;
			if (!folio_test_uptodate(folio)) {
				folio_put(folio);
				return -EAGAIN;
			}
		}
		in_folio = pos - folio_pos(folio);
		n = min_t(size_t, len, PAGE_SIZE - offset_in_page(pos));
		from = kmap_local_page(folio_page(folio, in_folio >> PAGE_SHIFT));
		memcpy(dst, (u8 *)from + offset_in_page(pos), n);
		kunmap_local(from);
		folio_put(folio);
		dst += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/*
 * Scan one block of notes at @off for the build-id; notes aligned to
 * @align. At most JMMAP_COOKIE_NOTE_BLOCK_MAX bytes of it are read, and no
 * more than *@budget, which is charged (jmmap.h). 1 when found, 0 when not
 * there, a negative errno when the file could not be read.
 */
static int scan_notes(const struct source *src, u64 off, u64 len, u32 align, u64 *budget,
		      struct jmmap_cookie *out)
{
	u8 *buf;
	u64 pos = 0;
	int found = 0;

	if (!len || off > (u64)src->size || len > (u64)src->size - off)
		return 0;
	len = min3(len, (u64)JMMAP_COOKIE_NOTE_BLOCK_MAX, *budget);
	if (!len)
		return 0;
	*budget -= len;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	found = read_exact(src, buf, len, (loff_t)off);
	if (found)
		goto out;
	while (len - pos >= sizeof(Elf32_Nhdr)) {
		Elf32_Nhdr nh;
		u64 name, desc, desc_pad;

		memcpy(&nh, buf + pos, sizeof(nh));
		name = pos + sizeof(nh);
		if (nh.n_namesz > len - name)
			break;
		desc = ALIGN(name + nh.n_namesz, align);
		desc_pad = ALIGN((u64)nh.n_descsz, align);
		if (desc > len || len - desc < desc_pad)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4) && nh.n_descsz >= 1 &&
		    nh.n_descsz <= JMMAP_COOKIE_MAX) {
			out->kind = JMMAP_COOKIE_ELF_BUILD_ID;
			out->len = (u8)nh.n_descsz;
			memset(out->bytes, 0, sizeof(out->bytes));
			memcpy(out->bytes, buf + desc, nh.n_descsz);
			found = 1;
			break;
		}
		pos = desc + desc_pad;
	}
out:
	kvfree(buf);
	return found;
}

struct elf_layout {
	bool is64;
	u64 phoff, shoff;
	u32 phnum, shnum, phentsize, shentsize;
};

/* 1 for an ELF file we read notes of, 0 for any other file, or a negative errno. */
static int elf_layout(const struct source *src, struct elf_layout *l)
{
	union {
		Elf64_Ehdr e64;
		Elf32_Ehdr e32;
	} eh;
	int err;

	if (src->size < (loff_t)sizeof(Elf32_Ehdr))
		return 0;
	memset(&eh, 0, sizeof(eh));
	err = read_exact(src, &eh, min_t(loff_t, src->size, sizeof(eh)), 0);
	if (err)
		return err;
	if (memcmp(eh.e32.e_ident, ELFMAG, SELFMAG) ||
	    eh.e32.e_ident[EI_DATA] != ELFDATA2LSB)
		return 0;
	if (eh.e32.e_ident[EI_CLASS] == ELFCLASS64) {
		if (src->size < (loff_t)sizeof(Elf64_Ehdr))
			return 0;
		l->is64 = true;
		l->phoff = eh.e64.e_phoff;
		l->phnum = eh.e64.e_phnum;
		l->phentsize = eh.e64.e_phentsize;
		l->shoff = eh.e64.e_shoff;
		l->shnum = eh.e64.e_shnum;
		l->shentsize = eh.e64.e_shentsize;
	} else if (eh.e32.e_ident[EI_CLASS] == ELFCLASS32) {
		l->is64 = false;
		l->phoff = eh.e32.e_phoff;
		l->phnum = eh.e32.e_phnum;
		l->phentsize = eh.e32.e_phentsize;
		l->shoff = eh.e32.e_shoff;
		l->shnum = eh.e32.e_shnum;
		l->shentsize = eh.e32.e_shentsize;
	} else {
		return 0;
	}
	return 1;
}

/*
 * Read a table of @num entries of @entsize at @off into *@tab: 0 with NULL
 * if it is not all in the file, or a negative errno.
 */
static int read_table(const struct source *src, u64 off, u32 num, u32 entsize, void **tab)
{
	u64 len = (u64)num * entsize;
	int err;

	*tab = NULL;
	if (!num || off > (u64)src->size || len > (u64)src->size - off)
		return 0;
	*tab = kvmalloc(len, GFP_KERNEL);
	if (!*tab)
		return -ENOMEM;
	err = read_exact(src, *tab, len, (loff_t)off);
	if (err) {
		kvfree(*tab);
		*tab = NULL;
	}
	return err;
}

/* 1 when the build-id note was found, 0 when there is none, or a negative errno. */
static int elf_build_id(const struct source *src, struct jmmap_cookie *out)
{
	u64 budget = JMMAP_COOKIE_NOTES_MAX;
	struct elf_layout l;
	int found;
	void *tab;
	u32 i;

	found = elf_layout(src, &l);
	if (found <= 0)
		return found;
	found = 0;

	if (l.phnum <= PHNUM_MAX &&
	    l.phentsize == (l.is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr))) {
		found = read_table(src, l.phoff, l.phnum, l.phentsize, &tab);
		for (i = 0; tab && i < l.phnum && !found && budget; i++) {
			u64 off, sz, align;
			u32 type;

			if (l.is64) {
				Elf64_Phdr *p = (Elf64_Phdr *)tab + i;

				type = p->p_type, off = p->p_offset, sz = p->p_filesz;
				align = p->p_align;
			} else {
				Elf32_Phdr *p = (Elf32_Phdr *)tab + i;

				type = p->p_type, off = p->p_offset, sz = p->p_filesz;
				align = p->p_align;
			}
			if (type == PT_NOTE)
				found = scan_notes(src, off, sz, align == 8 ? 8 : 4, &budget, out);
		}
		kvfree(tab);
	}
	if (found)
		return found;

	if (l.shnum <= SHNUM_MAX &&
	    l.shentsize == (l.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr))) {
		found = read_table(src, l.shoff, l.shnum, l.shentsize, &tab);
		for (i = 0; tab && i < l.shnum && !found && budget; i++) {
			u64 off, sz, align;
			u32 type;

			if (l.is64) {
				Elf64_Shdr *sh = (Elf64_Shdr *)tab + i;

				type = sh->sh_type, off = sh->sh_offset, sz = sh->sh_size;
				align = sh->sh_addralign;
			} else {
				Elf32_Shdr *sh = (Elf32_Shdr *)tab + i;

				type = sh->sh_type, off = sh->sh_offset, sz = sh->sh_size;
				align = sh->sh_addralign;
			}
			if (type == SHT_NOTE)
				found = scan_notes(src, off, sz, align == 8 ? 8 : 4, &budget, out);
		}
		kvfree(tab);
	}
	return found;
}

static int content_cookie(const struct source *src, struct jmmap_cookie *out)
{
	loff_t fsize = src->size;
	SHASH_DESC_ON_STACK(desc, sha256);
	u8 tag[JMMAP_CONTENT_COOKIE_TAG_LEN] = {};
	u8 digest[32];
	__le64 size_le = cpu_to_le64((u64)fsize);
	size_t n = min_t(loff_t, fsize, JMMAP_CONTENT_COOKIE_EDGE);
	u8 *edge;
	int err;

	edge = kmalloc(JMMAP_CONTENT_COOKIE_EDGE, GFP_KERNEL);
	if (!edge)
		return -ENOMEM;
	memcpy(tag, JMMAP_CONTENT_COOKIE_TAG, sizeof(JMMAP_CONTENT_COOKIE_TAG) - 1);
	desc->tfm = sha256;
	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, tag, sizeof(tag));
	if (!err)
		err = crypto_shash_update(desc, (u8 *)&size_le, sizeof(size_le));
	if (!err)
		err = read_exact(src, edge, n, 0);
	if (!err)
		err = crypto_shash_update(desc, edge, n);
	if (!err)
		err = read_exact(src, edge, n, fsize - n);
	if (!err)
		err = crypto_shash_update(desc, edge, n);
	if (!err)
		err = crypto_shash_final(desc, digest);
	shash_desc_zero(desc);
	kfree(edge);
	if (err)
		return err;
	out->kind = JMMAP_COOKIE_CONTENT;
	out->len = JMMAP_COOKIE_MAX;
	memcpy(out->bytes, digest, JMMAP_COOKIE_MAX);
	return 0;
}

static u32 cache_key(dev_t dev, unsigned long ino)
{
	return (u32)ino ^ (u32)(ino >> 32) ^ ((u32)dev * 0x9e3779b9u);
}

struct inode_state {
	dev_t dev;
	unsigned long ino;
	u32 generation;
	s64 ctime_sec;
	u32 ctime_nsec;
	loff_t size;
};

static void inode_state(struct inode *inode, struct inode_state *st)
{
	memset(st, 0, sizeof(*st)); /* compared with memcmp(), padding included */
	st->dev = inode->i_sb->s_dev;
	st->ino = inode->i_ino;
	st->generation = inode->i_generation;
	jmmap_inode_ctime(inode, &st->ctime_sec, &st->ctime_nsec);
	st->size = i_size_read(inode);
}

static bool cache_lookup(const struct inode_state *st, struct jmmap_cookie *out)
{
	struct cache_entry *e;
	bool hit = false;

	mutex_lock(&cache_mutex);
	hash_for_each_possible(cache, e, hnode, cache_key(st->dev, st->ino)) {
		if (e->dev != st->dev || e->ino != st->ino)
			continue;
		if (e->generation == st->generation && e->ctime_sec == st->ctime_sec &&
		    e->ctime_nsec == st->ctime_nsec && e->size == st->size) {
			*out = e->cookie;
			list_move(&e->lru, &cache_lru);
			hit = true;
		}
		break;
	}
	mutex_unlock(&cache_mutex);
	return hit;
}

static void cache_store(const struct inode_state *st, const struct jmmap_cookie *c)
{
	struct cache_entry *e, *found = NULL;

	mutex_lock(&cache_mutex);
	hash_for_each_possible(cache, e, hnode, cache_key(st->dev, st->ino)) {
		if (e->dev == st->dev && e->ino == st->ino) {
			found = e;
			break;
		}
	}
	if (!found && cache_count >= CACHE_MAX) {
		found = list_last_entry(&cache_lru, struct cache_entry, lru);
		hash_del(&found->hnode);
		hash_add(cache, &found->hnode, cache_key(st->dev, st->ino));
	} else if (!found) {
		found = kzalloc(sizeof(*found), GFP_KERNEL);
		if (!found)
			goto out;
		hash_add(cache, &found->hnode, cache_key(st->dev, st->ino));
		list_add(&found->lru, &cache_lru);
		cache_count++;
	}
	found->dev = st->dev;
	found->ino = st->ino;
	found->generation = st->generation;
	found->ctime_sec = st->ctime_sec;
	found->ctime_nsec = st->ctime_nsec;
	found->size = st->size;
	found->cookie = *c;
	list_move(&found->lru, &cache_lru);
out:
	mutex_unlock(&cache_mutex);
}

void jmmap_cookie_of_file(struct file *file, struct jmmap_cookie *out)
{
	struct inode *inode = file_inode(file);
	struct inode_state before, after;
	struct jmmap_cookie c = {};
	struct timespec64 now;
	enum read_how how;
	struct source src;
	bool cacheable;
	int err;

	memset(out, 0, sizeof(*out));
	if (!S_ISREG(inode->i_mode))
		return;
	if (!(file->f_mode & FMODE_READ)) {
		out->why = JMMAP_COOKIE_WHY_UNREADABLE;
		return;
	}
	how = fs_read_how(file);
	if (how == READ_NONE) {
		out->why = JMMAP_COOKIE_WHY_NOT_READ;
		return;
	}
	cacheable = ctime_tells(inode->i_sb) && !mapping_writably_mapped(file->f_mapping);
	inode_state(inode, &before);
	if (cacheable && cache_lookup(&before, out))
		return;
	src.file = file;
	src.size = before.size;
	src.how = how;
	err = elf_build_id(&src, &c);
	if (!err)
		err = content_cookie(&src, &c);
	if (err < 0) {
		out->why = err == -EAGAIN && how == READ_CACHED ? JMMAP_COOKIE_WHY_NOT_CACHED :
								  JMMAP_COOKIE_WHY_ERROR;
		return;
	}
	*out = c;

	/* Cache only what was computed from a file at rest. */
	inode_state(inode, &after);
	ktime_get_coarse_real_ts64(&now);
	if (cacheable && !mapping_writably_mapped(file->f_mapping) &&
	    memcmp(&before, &after, sizeof(before)) == 0 && now.tv_sec > after.ctime_sec + 1)
		cache_store(&after, &c);
}

int jmmap_cookie_init(void)
{
	sha256 = crypto_alloc_shash("sha256", 0, 0);
	if (IS_ERR(sha256)) {
		int err = PTR_ERR(sha256);

		sha256 = NULL;
		return err;
	}
	return 0;
}

void jmmap_cookie_exit(void)
{
	struct cache_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &cache_lru, lru) {
		hash_del(&e->hnode);
		list_del(&e->lru);
		kfree(e);
	}
	cache_count = 0;
	crypto_free_shash(sha256);
	sha256 = NULL;
}

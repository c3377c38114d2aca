// SPDX-License-Identifier: GPL-2.0
/* The jmmap cookie rule, user side: GNU build-id or content cookie. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cookie.h"
#include "dl-sym.h"
#include "fd-io.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/*
 * libcrypto (SHA-256), loaded the first time a content cookie is made:
 * linked, it costs every jrec run over a megabyte of memory and its start-up,
 * and only recording and the files without a build-id need it.
 */
#define CRYPTO_STR2(x) #x
#define CRYPTO_STR(x) CRYPTO_STR2(x)
#define CRYPTO_SONAME "libcrypto.so." CRYPTO_STR(OPENSSL_SHLIB_VERSION)

static struct {
	EVP_MD_CTX *(*ctx_new)(void);
	void (*ctx_free)(EVP_MD_CTX *ctx);
	const EVP_MD *(*sha256)(void);
	int (*init)(EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl);
	int (*update)(EVP_MD_CTX *ctx, const void *d, size_t cnt);
	int (*final)(EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s);
	bool ok;
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void crypto_load(void)
{
	void *lib = dlopen(CRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		return;
	crypto.ok = dl_sym(lib, "EVP_MD_CTX_new", &crypto.ctx_new) &&
		    dl_sym(lib, "EVP_MD_CTX_free", &crypto.ctx_free) &&
		    dl_sym(lib, "EVP_sha256", &crypto.sha256) &&
		    dl_sym(lib, "EVP_DigestInit_ex", &crypto.init) &&
		    dl_sym(lib, "EVP_DigestUpdate", &crypto.update) &&
		    dl_sym(lib, "EVP_DigestFinal_ex", &crypto.final);
	if (!crypto.ok)
		dlclose(lib);
}

int jrec_cookie_content(int fd, struct jrec_cookie *out)
{
	uint8_t tag[JMMAP_CONTENT_COOKIE_TAG_LEN] = { 0 };
	uint8_t size_le[8];
	uint8_t edge[JMMAP_CONTENT_COOKIE_EDGE];
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;
	EVP_MD_CTX *ctx;
	struct stat st;
	uint64_t size;
	size_t n;
	int err, i;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	size = (uint64_t)st.st_size;
	memcpy(tag, JMMAP_CONTENT_COOKIE_TAG, sizeof(JMMAP_CONTENT_COOKIE_TAG) - 1);
	for (i = 0; i < 8; i++)
		size_le[i] = (uint8_t)(size >> (8 * i));
	n = size < JMMAP_CONTENT_COOKIE_EDGE ? (size_t)size : JMMAP_CONTENT_COOKIE_EDGE;

	pthread_once(&crypto_once, crypto_load);
	if (!crypto.ok)
		return -ELIBACC;
	ctx = crypto.ctx_new();
	if (!ctx)
		return -ENOMEM;
	err = -EIO;
	if (!crypto.init(ctx, crypto.sha256(), NULL) || !crypto.update(ctx, tag, sizeof(tag)) ||
	    !crypto.update(ctx, size_le, sizeof(size_le)))
		goto out_free;
	err = fd__pread_all(fd, edge, n, 0);
	if (err)
		goto out_free;
	err = -EIO;
	if (!crypto.update(ctx, edge, n))
		goto out_free;
	err = fd__pread_all(fd, edge, n, size - n);
	if (err)
		goto out_free;
	err = -EIO;
	if (!crypto.update(ctx, edge, n) || !crypto.final(ctx, md, &md_len) ||
	    md_len < JMMAP_COOKIE_MAX)
		goto out_free;

	out->kind = JMMAP_COOKIE_CONTENT;
	out->len = JMMAP_COOKIE_MAX;
	memcpy(out->bytes, md, JMMAP_COOKIE_MAX);
	err = 0;
out_free:
	crypto.ctx_free(ctx);
	return err;
}

/* Look for NT_GNU_BUILD_ID "GNU" in one block of notes; true if found. */
static bool find_build_id(Elf_Data *data, struct jrec_cookie *out)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nhdr;

	if (!data)
		return false;
	while (off < data->d_size &&
	       (off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) != 0)
			continue;
		if (nhdr.n_descsz == 0 || nhdr.n_descsz > JMMAP_COOKIE_MAX)
			continue;
		out->kind = JMMAP_COOKIE_ELF_BUILD_ID;
		out->len = (uint8_t)nhdr.n_descsz;
		memset(out->bytes, 0, sizeof(out->bytes));
		memcpy(out->bytes, (const uint8_t *)data->d_buf + desc_off, nhdr.n_descsz);
		return true;
	}
	return false;
}

/*
 * find_build_id() in the first JMMAP_COOKIE_NOTE_BLOCK_MAX bytes of @data,
 * and no more than *@budget, which is charged (jmmap.h).
 */
static bool find_build_id_bounded(Elf_Data *data, size_t *budget, struct jrec_cookie *out)
{
	Elf_Data view;

	if (!data || !data->d_size || !*budget)
		return false;
	view = *data;
	if (view.d_size > JMMAP_COOKIE_NOTE_BLOCK_MAX)
		view.d_size = JMMAP_COOKIE_NOTE_BLOCK_MAX;
	if (view.d_size > *budget)
		view.d_size = *budget;
	*budget -= view.d_size;
	return find_build_id(&view, out);
}

/*
 * Notes of PT_NOTE segments first, then of SHT_NOTE sections; the first
 * "GNU" NT_GNU_BUILD_ID note of 1..20 bytes wins, among the bytes of notes
 * jmmap.h bounds. Notes are 8-byte aligned in a segment or section aligned
 * to 8, else 4-byte aligned. The module (kmod/cookie.c) follows the same
 * order and bounds.
 */
static bool elf_build_id(Elf *elf, struct jrec_cookie *out)
{
	size_t phnum = 0, i, budget = JMMAP_COOKIE_NOTES_MAX;
	Elf_Scn *scn = NULL;

	if (elf_getphdrnum(elf, &phnum) == 0) {
		for (i = 0; i < phnum; i++) {
			GElf_Phdr phdr;
			Elf_Data *data;

			if (!gelf_getphdr(elf, (int)i, &phdr) || phdr.p_type != PT_NOTE)
				continue;
			data = elf_getdata_rawchunk(elf, (int64_t)phdr.p_offset, phdr.p_filesz,
						    phdr.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
			if (find_build_id_bounded(data, &budget, out))
				return true;
		}
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		if (find_build_id_bounded(elf_getdata(scn, NULL), &budget, out))
			return true;
	}
	return false;
}

int jrec_cookie_from_fd(int fd, struct jrec_cookie *out)
{
	struct jrec_cookie c = { 0 };
	Elf *elf;
	bool found = false;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf) {
		const char *ident = elf_kind(elf) == ELF_K_ELF ? elf_getident(elf, NULL) : NULL;

		/* The module reads little-endian ELF only; big-endian gets CONTENT. */
		if (ident && ident[EI_DATA] == ELFDATA2LSB)
			found = elf_build_id(elf, &c);
		elf_end(elf);
	}
	if (found) {
		*out = c;
		return 0;
	}
	return jrec_cookie_content(fd, out);
}

int jrec_cookie_from_path(const char *path, struct jrec_cookie *out)
{
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = jrec_cookie_from_fd(fd, out);
	close(fd);
	return err;
}

void jrec_cookie_hex(const struct jrec_cookie *c, char *buf)
{
	static const char digits[] = "0123456789abcdef";
	unsigned int i, len = c->kind == JMMAP_COOKIE_NONE ? 0 : c->len;

	if (len > JMMAP_COOKIE_MAX)
		len = JMMAP_COOKIE_MAX;
	for (i = 0; i < len; i++) {
		buf[2 * i] = digits[c->bytes[i] >> 4];
		buf[2 * i + 1] = digits[c->bytes[i] & 0xf];
	}
	buf[2 * len] = '\0';
}

const char *jrec_cookie_kind_name(const struct jrec_cookie *c)
{
	if (!c->len)
		return "none";
	switch (c->kind) {
	case JMMAP_COOKIE_ELF_BUILD_ID:
		return "build-id";
	case JMMAP_COOKIE_CONTENT:
		return "content";
	default:
		return "none";
	}
}

bool jrec_cookie_equal(const struct jrec_cookie *a, const struct jrec_cookie *b)
{
	return a->kind == b->kind && a->len == b->len && !memcmp(a->bytes, b->bytes, a->len);
}

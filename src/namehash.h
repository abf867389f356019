/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * namehash.h - the dcache's name hash, computed a word at a time while the walk looks
 * for the end of the component, in one pass (the kernel's hash_name() in fs/namei.c,
 * with its word-at-a-time helpers from <asm/word-at-a-time.h>).
 *
 * Linux salts the hash with the parent dentry's address since 4.8 (8387ff2577eb,
 * "vfs: make the string hashes salt the hash"), so that the bucket depends on
 * (parent, name).  uvfs hashes the name alone and salts the *bucket* with the parent
 * (d_hash_index()): the same spread, but the hash of every component can be computed
 * before the walk knows the parent, so the dependent chain from one component to the
 * next is an add and two loads instead of three multiplications.  The mixing function
 * is our own; only the salting matters for what uvfs reproduces.
 *
 * A path is NUL-terminated, its length unknown: the walk reads it eight bytes at a
 * time, which may read past the NUL.  It never reads past the page the NUL is on
 * (load_path_word()), so it cannot fault; the bytes past the NUL are masked off
 * before they reach the hash.  AddressSanitizer would still call such a read an
 * overflow of the string's object, so the one function that does it is not
 * instrumented.
 */
#ifndef UVFS_NAMEHASH_H
#define UVFS_NAMEHASH_H

#include <stdint.h>
#include <string.h>

#define NAMEHASH_ONES  0x0101010101010101ull
#define NAMEHASH_HIGHS 0x8080808080808080ull
#define NAMEHASH_SLASHES (NAMEHASH_ONES * '/')

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "the word-at-a-time masks assume little-endian words");

typedef uint64_t __attribute__((aligned(1), may_alias)) unaligned_u64;

/* The loads below read past a string's NUL, never past its page: the sanitizers,
 * which track bytes, not pages, are told so (ThreadSanitizer would otherwise see a
 * read of a neighbour freed by another thread, which the bytes kept never reach). */
#define NAMEHASH_OVERREAD __attribute__((no_sanitize("address", "thread")))

/* Eight bytes of a NUL-terminated string from p, or as many as lie before the end of
 * p's page (the rest zero) when a word would cross it: a string that ends on this
 * page ends before the cut, and one that goes on makes the next page readable. */
NAMEHASH_OVERREAD static inline uint64_t load_path_word(const unsigned char *p)
{
	uint64_t w = 0;

	if (__builtin_expect(((uintptr_t)p & 4095) <= 4096 - 8, 1))
		return *(const unaligned_u64 *)p;
	for (unsigned int i = 0; i < 8; i++) {
		w |= (uint64_t)p[i] << (8 * i);
		if (!p[i])
			break;
	}
	return w;
}

/* Nonzero where w has a zero byte; the lowest set bit (bit 7 of that byte) is exact,
 * higher ones may be false (borrows). */
static inline uint64_t has_zero(uint64_t w)
{
	return (w - NAMEHASH_ONES) & ~w & NAMEHASH_HIGHS;
}

/* The bytes below the first one has_zero() found, as a mask (0 for none below):
 * bits ^ (bits - 1) sets every bit up to that byte's bit 7. */
static inline uint64_t bytes_below(uint64_t bits)
{
	return (bits ^ (bits - 1)) >> 8;
}

#define NAMEHASH_SEED 0x6a09e667f3bcc908ull

/* The bucket of (parent, name hash): dentries are at least 64 bytes apart. */
static inline uint32_t d_hash_index(const void *parent, uint32_t hash)
{
	return hash + (uint32_t)((uintptr_t)parent >> 6);
}

/* A multiplication's high bits depend on every bit of its input, its low ones only
 * on the input's low bits: the rotation brings the good bits (37..63) down to where
 * the bucket index takes them (the low 27 bits of the hash; tables are smaller). */
static inline uint64_t namehash_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return (h << 27) | (h >> 37);
}

/* hash_len: the hash in the low 32 bits, the length in the high 32 (struct qstr). */
#define HASH_LEN(hash, len) ((uint64_t)(hash) | (uint64_t)(len) << 32)
#define HASH_LEN_LEN(hl) ((uint32_t)((hl) >> 32))

#ifdef __SSE2__
#include <emmintrin.h>

/* Sixteen bytes of a NUL-terminated string from p, like load_path_word(). */
NAMEHASH_OVERREAD static inline __m128i load_path_16(const unsigned char *p)
{
	unsigned char buf[16];

	if (__builtin_expect(((uintptr_t)p & 4095) <= 4096 - 16, 1))
		return _mm_loadu_si128((const __m128i *)p);
	memset(buf, 0, sizeof(buf));
	for (unsigned int i = 0; i < 16 && (buf[i] = p[i]); i++)
		;
	return _mm_loadu_si128((const __m128i *)buf);
}
#endif

/*
 * hash_name - hash and length of the component that starts at s and ends at the
 * first '/' or NUL.  The full words go into the hash as they are, the last one with
 * the bytes from the end on cleared (possibly all of them); the length is not mixed
 * in (lookups compare it with the hash, hash_len).  hash_known() gives the same
 * value for the same bytes.
 *
 * hash_name_words() looks for the end a word at a time (the kernel's way);
 * hash_name() with SSE2 sixteen bytes at a time, one compare per kind of terminator.
 */
NAMEHASH_OVERREAD static inline uint64_t hash_name_words(const unsigned char *s)
{
	uint64_t h = NAMEHASH_SEED, w, bits;
	uint32_t len = 0;

	for (;;) {
		w = load_path_word(s + len);
		bits = has_zero(w) | has_zero(w ^ NAMEHASH_SLASHES);
		if (bits)
			break;
		h = namehash_mix(h, w);
		len += 8;
	}
	h = namehash_mix(h, w & bytes_below(bits));
	len += (uint32_t)__builtin_ctzll(bits) >> 3;
	return HASH_LEN((uint32_t)h, len);
}

NAMEHASH_OVERREAD static inline uint64_t hash_name(const unsigned char *s)
{
#ifdef __SSE2__
	const __m128i slash = _mm_set1_epi8('/'), zero = _mm_setzero_si128();
	uint64_t h = NAMEHASH_SEED;
	uint32_t len = 0;

	for (;;) {
		__m128i v = load_path_16(s + len);
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, slash)));
		uint64_t lo = (uint64_t)_mm_cvtsi128_si64(v);
		uint64_t hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
		unsigned int n;

		if (m) {
			n = (unsigned int)__builtin_ctz(m);
			len += n;
			if (n >= 8) {
				h = namehash_mix(h, lo);
				lo = hi;
				n -= 8;
			}
			h = namehash_mix(h, lo & ((1ull << (8 * n)) - 1));
			return HASH_LEN((uint32_t)h, len);
		}
		h = namehash_mix(namehash_mix(h, lo), hi);
		len += 16;
	}
#else
	return hash_name_words(s);
#endif
}

/* The same hash for a name of known length with no '/' or NUL in it. */
static inline uint32_t hash_known(const unsigned char *name, uint32_t len)
{
	uint64_t h = NAMEHASH_SEED, w;
	uint32_t n = len;

	for (; n >= 8; n -= 8, name += 8)
		h = namehash_mix(h, *(const unaligned_u64 *)name);
	w = 0;
	memcpy(&w, name, n);
	return (uint32_t)namehash_mix(h, w);
}

#endif /* UVFS_NAMEHASH_H */

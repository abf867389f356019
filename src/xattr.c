// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xattr.c - extended attributes: setxattrat, getxattrat, listxattrat, removexattrat
 * and the path, l- and f- forms they stand for (fs/xattr.c), with the checks of
 * xattr_permission() and of the capability module (security/commoncap.c:
 * cap_convert_nscap(), cap_inode_getsecurity(), cap_inode_setxattr(),
 * cap_inode_removexattr(), cap_inode_killpriv()), in the kernel's order.
 *
 * A filesystem keeps attributes through ->xattr_get/set/list (memfs: simple_xattr.c,
 * as tmpfs; hostfs: the host file's); one without them has none (procfs).  POSIX
 * ACLs are not kept: an access ACL that says no more than the mode is a chmod, as
 * the kernel's posix_acl_update_mode() stores it; any other ACL is EOPNOTSUPP, a
 * deliberate difference (docs/SEMANTICS.md, "Extended attributes").
 *
 * Locking: ns_lock (task_enter) for every call.
 */
#include <endian.h>
#include <sys/xattr.h>

#include "attr.h"
#include "file.h"
#include "fsnotify.h"
#include "mount.h"
#include "namei.h"
#include "permission.h"
#include "task.h"

/* include/uapi/linux/limits.h */
#define XATTR_NAME_MAX_ 255
#define XATTR_SIZE_MAX_ 65536
#define XATTR_LIST_MAX_ 65536

/* include/uapi/linux/xattr.h (glibc's sys/xattr.h has only the flags) */
#define XATTR_SECURITY_PREFIX "security."
#define XATTR_SYSTEM_PREFIX "system."
#define XATTR_TRUSTED_PREFIX "trusted."
#define XATTR_USER_PREFIX "user."
#define XATTR_NAME_CAPS "security.capability"
/* struct vfs_cap_data (v2) and vfs_ns_cap_data (v3): linux/capability.h's sizes */
_Static_assert(XATTR_CAPS_SZ_2 == 20 && XATTR_CAPS_SZ_3 == 24, "the capability layouts");

#define ACL_ACCESS "system.posix_acl_access"
#define ACL_DEFAULT "system.posix_acl_default"

static bool has_prefix(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

static bool is_acl_name(const char *name)
{
	return !strcmp(name, ACL_ACCESS) || !strcmp(name, ACL_DEFAULT);
}

/* import_xattr_name(): an empty name or one longer than XATTR_NAME_MAX is ERANGE */
static int check_name(const char *name)
{
	size_t len;

	if (!name)
		return -EFAULT;
	len = strnlen(name, XATTR_NAME_MAX_ + 1);
	return !len || len > XATTR_NAME_MAX_ ? -ERANGE : 0;
}

/* The walk of the *at calls: AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH, nothing else.
 * An empty (or NULL) path with AT_EMPTY_PATH and a descriptor is the file itself,
 * taken as fdget() takes it: an O_PATH one is EBADF (path_setxattrat() and its
 * siblings, asked on 6.18); with AT_FDCWD it is the working directory. */
static int xattr_lookup(struct uvfs_task *task, int dirfd, const char *path, int at_flags,
			struct path *out)
{
	unsigned int lf = (at_flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW;

	if ((at_flags & AT_EMPTY_PATH) && (!path || !path[0])) {
		struct file *f;

		if (dirfd < 0)
			return filename_lookup(task, dirfd, "", LOOKUP_EMPTY, out);
		f = fdget(task, dirfd);
		if (!f || (f->f_mode & FMODE_PATH))
			return -EBADF;
		*out = f->f_path;
		path_get(out);
		return 0;
	}

	if (at_flags & AT_EMPTY_PATH)
		lf |= LOOKUP_EMPTY;
	return filename_lookup(task, dirfd, path, lf, out);
}

/*
 * xattr_permission(): writing to an immutable or append-only inode is EPERM;
 * security.* and system.* are left to the module and the filesystem; trusted.*
 * needs CAP_SYS_ADMIN (EPERM to write, ENODATA to read: it is not there for
 * the caller); user.* lives on regular files and directories only (EPERM, ENODATA),
 * and a sticky directory's are written by its owner only; then the file's
 * permission, as for any other name.
 */
static int xattr_permission(const struct cred *cred, struct inode *inode, const char *name,
			    int mask)
{
	if ((mask & MAY_WRITE) && (IS_IMMUTABLE(inode) || IS_APPEND(inode)))
		return -EPERM;
	if (has_prefix(name, XATTR_SECURITY_PREFIX) || has_prefix(name, XATTR_SYSTEM_PREFIX))
		return 0;
	if (has_prefix(name, XATTR_TRUSTED_PREFIX)) {
		if (!cred_capable(cred, CAP_SYS_ADMIN))
			return (mask & MAY_WRITE) ? -EPERM : -ENODATA;
		return 0;
	}
	if (has_prefix(name, XATTR_USER_PREFIX)) {
		if (!S_ISREG(inode->i_mode) && !S_ISDIR(inode->i_mode))
			return (mask & MAY_WRITE) ? -EPERM : -ENODATA;
		if (S_ISDIR(inode->i_mode) && (inode->i_mode & S_ISVTX) && (mask & MAY_WRITE) &&
		    !inode_owner_or_capable(cred, inode))
			return -EPERM;
	}
	return inode_permission(cred, inode, mask);
}

/* xattr_resolve_name(): a filesystem without attributes EOPNOTSUPP; tmpfs's handlers
 * are user., trusted. and security. (a bare prefix is EINVAL); any other EOPNOTSUPP */
static int xattr_resolve(const struct inode *inode, const char *name)
{
	static const char *const prefixes[] = {
		XATTR_USER_PREFIX, XATTR_TRUSTED_PREFIX, XATTR_SECURITY_PREFIX,
	};

	if (!inode->i_op->xattr_get)
		return -EOPNOTSUPP;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (has_prefix(name, prefixes[i]))
			return name[strlen(prefixes[i])] ? 0 : -EINVAL;
	return -EOPNOTSUPP;
}

static uint32_t le32_at(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)p + off, 4);
	return le32toh(v);
}

/*
 * cap_convert_nscap(): a security.capability value must be a v2 (20 bytes) or v3
 * (24, with a root uid) header, EINVAL; setting one takes CAP_SETFCAP (EPERM).  A v2
 * from a caller with CAP_SETFCAP is kept as it is; a v3 is kept with its root uid
 * and only the effective flag in its magic.  uvfs has one user namespace, the
 * initial one, so the root uid maps to itself (an invalid one, -1, is EINVAL).
 * The value to store is written to out; its size is returned.
 */
static int cap_convert(const struct cred *cred, const void *value, size_t size,
		       unsigned char out[XATTR_CAPS_SZ_3])
{
	uint32_t magic, rootid;

	if (!value)
		return -EINVAL;
	magic = size >= 4 ? le32_at(value, 0) : 0;
	if (!((size == XATTR_CAPS_SZ_2 &&
	       (magic & ~VFS_CAP_FLAGS_EFFECTIVE) == VFS_CAP_REVISION_2) ||
	      (size == XATTR_CAPS_SZ_3 &&
	       (magic & ~VFS_CAP_FLAGS_EFFECTIVE) == VFS_CAP_REVISION_3)))
		return -EINVAL;
	if (!cred_capable(cred, CAP_SETFCAP))
		return -EPERM;
	memcpy(out, value, size);
	if (size == XATTR_CAPS_SZ_2)
		return (int)size;
	rootid = le32_at(value, 20);
	if (rootid == (uint32_t)-1)
		return -EINVAL;
	magic = htole32(VFS_CAP_REVISION_3 | (magic & VFS_CAP_FLAGS_EFFECTIVE));
	memcpy(out, &magic, 4);
	return (int)size;
}

/*
 * cap_inode_getsecurity(): security.capability as the reader sees it.  A root uid
 * that is 0 (a v2 value, or a v3 one made by the initial namespace's root) comes back
 * as v2 with only the effective flag kept; any other as v3 with that uid.  Its
 * length, copied into value when size is not 0 (ERANGE if short); ENODATA.
 */
static ssize_t cap_getsecurity(struct inode *inode, void *value, size_t size)
{
	unsigned char raw[XATTR_CAPS_SZ_3], out[XATTR_CAPS_SZ_3];
	ssize_t len = inode->i_op->xattr_get(inode, XATTR_NAME_CAPS, NULL, 0);
	uint32_t magic, v2;

	if (len < 0)
		return len;
	if (len != XATTR_CAPS_SZ_2 && len != XATTR_CAPS_SZ_3)
		return -EINVAL;
	len = inode->i_op->xattr_get(inode, XATTR_NAME_CAPS, raw, sizeof(raw));
	if (len < 0)
		return len;
	magic = le32_at(raw, 0);
	if (len == XATTR_CAPS_SZ_3 && le32_at(raw, 20) != 0) {
		memcpy(out, raw, XATTR_CAPS_SZ_3);
	} else {
		v2 = htole32(VFS_CAP_REVISION_2 | (magic & VFS_CAP_FLAGS_EFFECTIVE));
		memcpy(out, &v2, 4);
		memcpy(out + 4, raw + 4, XATTR_CAPS_SZ_2 - 4);
		len = XATTR_CAPS_SZ_2;
	}
	if (!size)
		return len;
	if (size < (size_t)len)
		return -ERANGE;
	memcpy(value, out, (size_t)len);
	return len;
}

/* cap_inode_setxattr() and cap_inode_removexattr(): security.* but the capability
 * (checked on its own) needs CAP_SYS_ADMIN; removing the capability CAP_SETFCAP */
static int cap_may_change(const struct cred *cred, const char *name, bool remove)
{
	if (!has_prefix(name, XATTR_SECURITY_PREFIX))
		return 0;
	if (!strcmp(name, XATTR_NAME_CAPS))
		return !remove || cred_capable(cred, CAP_SETFCAP) ? 0 : -EPERM;
	return cred_capable(cred, CAP_SYS_ADMIN) ? 0 : -EPERM;
}

bool inode_need_killpriv(struct inode *inode)
{
	return (inode->i_state & I_XATTRS) && inode->i_op->xattr_get &&
	       inode->i_op->xattr_get(inode, XATTR_NAME_CAPS, NULL, 0) >= 0;
}

int inode_killpriv(struct inode *inode)
{
	int err = inode->i_op->xattr_set(inode, XATTR_NAME_CAPS, NULL, 0, 0);

	return err == -ENODATA ? 0 : err;
}

/*
 * posix_acl_from_xattr() and posix_acl_equiv_mode() for the one ACL uvfs takes: a
 * version-2 access ACL of exactly the owner, group and other entries, which says no
 * more than permission bits.  The bits, or -errno: EINVAL for a malformed value,
 * EOPNOTSUPP for any ACL uvfs would have to keep.
 */
static int acl_to_mode(const void *value, size_t size)
{
	enum { ACL_USER_OBJ = 1, ACL_GROUP_OBJ = 4, ACL_OTHER = 0x20 };
	int mode = 0;

	if (!value || size < 4)
		return -EINVAL;
	if (le32_at(value, 0) != 2)
		return -EOPNOTSUPP;
	if (size != 4 + 3 * 8)
		return (size - 4) % 8 ? -EINVAL : -EOPNOTSUPP;
	for (int i = 0; i < 3; i++) {
		uint32_t e = le32_at(value, 4 + 8 * (size_t)i);
		unsigned int tag = e & 0xffff, perm = e >> 16;

		if (perm & ~7u)
			return -EINVAL;
		switch (tag) {
		case ACL_USER_OBJ: mode |= (int)perm << 6; break;
		case ACL_GROUP_OBJ: mode |= (int)perm << 3; break;
		case ACL_OTHER: mode |= (int)perm; break;
		default: return -EOPNOTSUPP;
		}
	}
	return mode;
}

/*
 * vfs_set_acl() and vfs_remove_acl(): may_write_xattr() (EPERM), a default ACL of a
 * non-directory (EACCES to set, nothing to remove), the owner (EPERM); a minimal
 * access ACL is the mode, any other EOPNOTSUPP.  Removing one (none is kept) stamps
 * the ctime, as simple_set_acl() does.  A filesystem without attributes EOPNOTSUPP.
 */
static int set_acl(struct uvfs_task *task, const struct path *path, const char *name,
		   const void *value, size_t size, bool remove)
{
	struct inode *inode = path->dentry->d_inode;
	int mode = 0;

	if (!remove && (mode = acl_to_mode(value, size)) < 0)
		return mode;
	if (IS_IMMUTABLE(inode) || IS_APPEND(inode))
		return -EPERM;
	if (!inode->i_op->xattr_get)
		return -EOPNOTSUPP;
	if (S_ISLNK(inode->i_mode))
		return -EOPNOTSUPP;  /* no ->set_acl */
	if (!strcmp(name, ACL_DEFAULT) && !S_ISDIR(inode->i_mode))
		return remove ? 0 : -EACCES;
	if (!inode_owner_or_capable(&task->cred, inode))
		return -EPERM;
	if (!remove && strcmp(name, ACL_ACCESS))
		return -EOPNOTSUPP;
	if (remove) {
		/* the filesystem's: memfs keeps none and stamps the ctime, as
		 * simple_set_acl(NULL) does; a host file's goes on the host */
		int err = inode->i_op->xattr_set(inode, name, NULL, 0, 0);

		if (!err)
			fsnotify_xattr(path->dentry);
		return err;
	}
	return chmod_common(&task->cred, path, (mode_t)((inode->i_mode & 07000) | (mode_t)mode));
}

int uvfs_setxattrat(struct uvfs_task *task, int dirfd, const char *pathname, int at_flags,
		    const char *name, const void *value, size_t size, int flags)
{
	unsigned char capbuf[XATTR_CAPS_SZ_3];
	struct path path;
	struct inode *inode;
	int err;

	if (!task)
		return -EINVAL;
	if ((at_flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) ||
	    (flags & ~(XATTR_CREATE | XATTR_REPLACE)))
		return -EINVAL;
	if ((err = check_name(name)))
		return err;
	if (size > XATTR_SIZE_MAX_)
		return -E2BIG;
	if (size && !value)
		return -EFAULT;
	task_enter(task);
	err = xattr_lookup(task, dirfd, pathname, at_flags, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	if ((err = mnt_want_write(path.mnt)))
		goto put;
	if (is_acl_name(name)) {
		err = set_acl(task, &path, name, value, size, false);
		goto put;
	}
	if (!strcmp(name, XATTR_NAME_CAPS)) {
		/* vfs_setxattr(): the capability is checked before anything else; an
		 * empty one (no value) is EINVAL there */
		err = cap_convert(&task->cred, size ? value : NULL, size, capbuf);
		if (err < 0)
			goto put;
		value = capbuf;
		size = (size_t)err;
	} else if (!size) {
		value = "";  /* setxattr(..., NULL, 0) sets an empty value */
	}
	if ((err = xattr_permission(&task->cred, inode, name, MAY_WRITE)) ||
	    (err = cap_may_change(&task->cred, name, false)) ||
	    (err = xattr_resolve(inode, name)))
		goto put;
	err = inode->i_op->xattr_set(inode, name, value, size, flags);
	if (!err)
		fsnotify_xattr(path.dentry);
put:
	path_put(&path);
out:
	task_leave(task);
	return err;
}

ssize_t uvfs_getxattrat(struct uvfs_task *task, int dirfd, const char *pathname, int at_flags,
			const char *name, void *value, size_t size)
{
	struct path path;
	struct inode *inode;
	ssize_t ret;
	int err;

	if (!task)
		return -EINVAL;
	if (at_flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((err = check_name(name)))
		return err;
	if (size > XATTR_SIZE_MAX_)
		size = XATTR_SIZE_MAX_;
	if (size && !value)
		return -EFAULT;
	task_enter(task);
	ret = xattr_lookup(task, dirfd, pathname, at_flags, &path);
	if (ret)
		goto out;
	inode = path.dentry->d_inode;
	if (is_acl_name(name)) {
		/* vfs_get_acl(): no permission asked; none kept, a host file's the host's */
		ret = inode->i_op->xattr_get ? inode->i_op->xattr_get(inode, name, value, size)
					     : -EOPNOTSUPP;
	} else if ((ret = xattr_permission(&task->cred, inode, name, MAY_READ))) {
		;
	} else if (!strcmp(name, XATTR_NAME_CAPS) && inode->i_op->xattr_get) {
		ret = cap_getsecurity(inode, value, size);
	} else if (!(ret = xattr_resolve(inode, name))) {
		ret = inode->i_op->xattr_get(inode, name, value, size);
	}
	/* getxattr(): a value too big for the largest buffer is E2BIG */
	if (ret == -ERANGE && size >= XATTR_SIZE_MAX_)
		ret = -E2BIG;
	path_put(&path);
out:
	task_leave(task);
	return ret;
}

ssize_t uvfs_listxattrat(struct uvfs_task *task, int dirfd, const char *pathname, int at_flags,
			 char *list, size_t size)
{
	struct path path;
	struct inode *inode;
	ssize_t ret;

	if (!task)
		return -EINVAL;
	if (at_flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (size > XATTR_LIST_MAX_)
		size = XATTR_LIST_MAX_;
	if (size && !list)
		return -EFAULT;
	task_enter(task);
	ret = xattr_lookup(task, dirfd, pathname, at_flags, &path);
	if (ret)
		goto out;
	inode = path.dentry->d_inode;
	/* vfs_listxattr(): no permission asked; trusted.* for CAP_SYS_ADMIN only */
	ret = inode->i_op->xattr_list
		? inode->i_op->xattr_list(inode, cred_capable(&task->cred, CAP_SYS_ADMIN), list, size)
		: 0;
	if (ret == -ERANGE && size >= XATTR_LIST_MAX_)
		ret = -E2BIG;
	path_put(&path);
out:
	task_leave(task);
	return ret;
}

int uvfs_removexattrat(struct uvfs_task *task, int dirfd, const char *pathname, int at_flags,
		       const char *name)
{
	struct path path;
	struct inode *inode;
	int err;

	if (!task)
		return -EINVAL;
	if (at_flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((err = check_name(name)))
		return err;
	task_enter(task);
	err = xattr_lookup(task, dirfd, pathname, at_flags, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	if ((err = mnt_want_write(path.mnt)))
		goto put;
	if (is_acl_name(name)) {
		err = set_acl(task, &path, name, NULL, 0, true);
		goto put;
	}
	if ((err = xattr_permission(&task->cred, inode, name, MAY_WRITE)) ||
	    (err = cap_may_change(&task->cred, name, true)) ||
	    (err = xattr_resolve(inode, name)))
		goto put;
	err = inode->i_op->xattr_set(inode, name, NULL, 0, XATTR_REPLACE);
	if (!err)
		fsnotify_xattr(path.dentry);
put:
	path_put(&path);
out:
	task_leave(task);
	return err;
}

/*
 * verify: what a run knows of a fileset's files beyond their blocks
 * (engine/verify.h), from the tree as fileset_create made it.
 */
#include "engine/fileset_int.h"

#include "engine/verify.h"

void fs_verify_track(struct fileset *fs)
{
	if (!fs->verify)
		return;
	vfy_files_free(fs->vfiles);
	fs->vfiles = vfy_files_new(fs->files.n);
	for (uint64_t e = 0; e < fs->files.n; e++)
		if (fs_test(&fs->files, fs->files.exists, e))
			vfy_files_made(fs->vfiles, e,
				       fileset_entry_size(fs, (int64_t)e));
}

# shellcheck shell=bash
# Scratch kernels and queues for the pipeline scripts' tests: small git
# trees shaped like a kernel tree, so every case runs in well under a second.

REPO_DIR=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
SCRIPTS=$REPO_DIR/scripts

setup() {
	SCRATCH=$(mktemp -d)
	export BUILD_DIR=$SCRATCH/build LOG_DIR=$SCRATCH/build/logs
	export SRC_DIR=$BUILD_DIR/linux QUEUE_DIR=$SCRATCH/queue NO_INSTALL=1
	export GIT_AUTHOR_NAME=tester GIT_AUTHOR_EMAIL=tester@example.invalid
	export GIT_COMMITTER_NAME=tester GIT_COMMITTER_EMAIL=tester@example.invalid
	mkdir -p "$BUILD_DIR" "$QUEUE_DIR/patches"
}

teardown() {
	rm -rf "$SCRATCH"
}

# make_tarball FILE VERSION: a linux-source-like tarball of that version.
make_tarball() {
	local file=$1 version=$2 dir=$SCRATCH/tarball/linux-source-7.3
	mkdir -p "$dir/mm"
	IFS=. read -r v p s <<<"$version"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' "$v" "$p" "$s" >"$dir/Makefile"
	printf '*\n' >"$dir/.gitignore"
	printf 'int percpu;\n' >"$dir/mm/percpu.c"
	tar -cJf "$file" -C "$SCRATCH/tarball" linux-source-7.3
}

# make_git_tree DIR: a committed kernel-like tree with tag base.
make_git_tree() {
	local dir=$1
	mkdir -p "$dir/mm"
	printf 'VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\n' >"$dir/Makefile"
	printf 'int percpu;\n' >"$dir/mm/percpu.c"
	git -C "$dir" init -q -b main
	git -C "$dir" add -A
	git -C "$dir" commit -q -m base
	git -C "$dir" tag base
}

# make_queue TREE: a two-patch queue made from commits on a throwaway branch.
make_queue() {
	local tree=$1
	git -C "$tree" checkout -q -b make-queue base
	echo 'int percpu_one;' >>"$tree/mm/percpu.c"
	git -C "$tree" commit -q -am "mm/percpu: one"
	echo 'int percpu_two;' >>"$tree/mm/percpu.c"
	echo 'int percpu_new;' >"$tree/mm/percpu_new.c"
	git -C "$tree" add mm/percpu_new.c
	git -C "$tree" commit -q -am "mm/percpu: two" -m "Adds a file, so the patch has a summary."
	KERNEL_TREE=$tree "$SCRIPTS/export.sh" 2>/dev/null
	git -C "$tree" checkout -q main
	git -C "$tree" branch -q -D make-queue
}

# The last line of output is the one error line the scripts promise.
assert_one_error() {
	[ "$status" -ne 0 ]
	[ "$(grep -c '^error: ' <<<"$output")" -eq 1 ]
	[[ ${lines[-1]} == error:* ]]
	[[ ${lines[-1]} == *"$1"* ]]
}

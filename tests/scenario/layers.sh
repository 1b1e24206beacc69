# The layer rules of docs/INTERNALS.md section 2 (tests/layers.py): the
# build's object files make no cycle within a folder tree and use other
# folders only as tests/layers.allow allows; no folder holds more than 20
# C files.  Then the checker is shown a small broken tree for each rule
# and must fail, naming what broke it.
. "$(dirname "$0")/../lib.sh"
HERE=$TOP/tests
LAYERS="python3 $HERE/layers.py"

$LAYERS "$B" >out 2>&1
echo $? >rc
sed 's/^/  /' out
expect_eq "the build keeps the layer rules" "$(cat rc)" 0
expect_grep "the checker read the build's objects" out \
	"^layers: [1-9][0-9]* objects in [0-9]+ folders, .* 0 cycles, 0 breaches$"

# mini SRC FILE FUNCTION [CALLED...]: SRC/FILE.c defines FUNCTION, which
# calls each CALLED; its object goes to b/obj/FILE.o.
mini() {
	local file=$1 fn=$2 body="" c
	shift 2
	for c in "$@"; do body="$body void $c(void); $c();"; done
	mkdir -p "src/$(dirname "$file")" "b/obj/$(dirname "$file")"
	echo "void $fn(void); void $fn(void) {$body }" >"src/$file.c"
	cc -c "src/$file.c" -o "b/obj/$file.o"
}
# broken WHAT PATTERN: the checker fails on the small tree, saying PATTERN.
broken() {
	$LAYERS b --src src --allow allow >out 2>&1
	echo $? >rc
	expect_eq "$1: the checker fails" "$(cat rc)" 1
	expect_grep "$1: it says what" out "$2"
}

# A small tree that keeps the rules (the allowed list without its
# pending lines, which the small tree does not use).
grep -v '^pending' "$HERE/layers.allow" >allow
mini logs/format/fmt fmt_put
mini logs/analysis/ana ana_run fmt_put
mini pangaea_lib/engine/eng eng_log fmt_put
mini pangaea_lib/pvm/wrap pvm_wrap eng_log
$LAYERS b --src src --allow allow >out 2>&1
expect_eq "a small tree that keeps the rules passes" "$?" 0

mini logs/format/fmt2 fmt_more ana_run
up="^layers: logs/format -> logs/analysis not allowed: logs/format/fmt2.o"
broken "a call from logs/format up to logs/analysis" \
	"$up uses ana_run \(defined in logs/analysis/ana.o\)$"
rm src/logs/format/fmt2.c

mini logs/analysis/ana2 ana_two ana_three
mini logs/analysis/ana3 ana_three ana_two
broken "two objects of logs/ calling each other" \
	"^layers: cycle of object files: logs/analysis/ana2.o logs/analysis/ana3.o$"
rm src/logs/analysis/ana3.c

mini logs/newroom/new new_fn fmt_put
broken "a folder outside the layer map" \
	"^layers: folder logs/newroom \(logs/newroom/new.o\) is not in the layer map"
rm src/logs/newroom/new.c

mkdir -p src/examples/many
for i in $(seq 21); do echo "int many$i;" >"src/examples/many/m$i.c"; done
broken "21 C files in one folder" \
	"^layers: examples/many holds 21 C files directly \(at most 20\)$"
rm -r src/examples/many

printf 'b/obj/pangaea_lib/engine/eng.o: src/pangaea_lib/engine/eng.c \\\n /usr/include/pvm3.h\n' \
	>b/obj/pangaea_lib/engine/eng.d
broken "the engine built with pvm3.h" \
	"^layers: pangaea_lib/engine/eng.o is built with pvm3.h, and pangaea_lib/engine is neutral$"
rm b/obj/pangaea_lib/engine/eng.d

echo "pending pangaea_lib/engine -> pangaea_lib/pvm  # (test)" >>allow
broken "a pending use that is gone" \
	"^layers: pangaea_lib/engine -> pangaea_lib/pvm is no longer used"
mini pangaea_lib/engine/eng2 eng_two pvm_wrap
$LAYERS b --src src --allow allow >out 2>&1
expect_eq "a pending use still made passes" "$?" 0
expect_grep "a pending use is printed" out \
	"^layers: pangaea_lib/engine -> pangaea_lib/pvm pending: .*/eng2.o uses"

echo "logs/format -> pangaea_lib/pvm  # (test)" >>allow
broken "an allowed list going round" \
	"^layers: the allowed list goes round a circle: "
finish

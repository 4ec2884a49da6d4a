# The three spellings of a variable reference read alike: $name, ${name}
# and filebench's $(name), in attribute values and inside strings.
set $dir="$tmpdir/forms"
set $n=12
set $nfiles=$(n)
set $sz=4k
set $size=${sz}
set $note="files $(nfiles) of ${size}, $n(not a call)"
define fileset name=fs,path=$(dir),entries=$(nfiles),size=$size,dirwidth=${n},prealloc=50
define process name=p
{
  thread name=t
  {
    flowop openfile name=open,filesetname=fs,fd=1
    flowop read name=rd,fd=1,iosize=$(sz)
    flowop closefile name=close,fd=1
    flowop print name=say,value="$(note)"
  }
}
run 1

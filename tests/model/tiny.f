# A synthetic model of tiny.trace (fbrun model)
#
# What the recording did to files, as ordinary flowops: a fileset and a
# thread per group of opens that did alike, and a thread for what was done
# by path.  Each thread runs its loop once per open of its group and ends;
# the run ends when all have, so one run does the recording's work once.
# Edit it freely: more passes are a larger finishoncount value (and more
# entries where a thread makes, removes or links files); copies of a thread
# (instances=) stop once their passes together reach the value.
#
# Measured: 22 operations in 2 streams (a trace of format fbrun).
#   operation           trace     failed      model
#   open                    3          0          3
#   close                   3          0          3
#   read                    2          0          2
#   write                   3          0          3
#   fsync                   2          0          2
#   stat                    2          1          2
#   fstat                   1          0          1
#   unlink                  1          0          1
#   rename                  1          0          1
#   mkdir                   1          0          1
#   bytes read           3000                  3000
#   bytes written        8392                  8392
# (trace: the operations that succeeded; stat counts lstat, fsync fdatasync.)
# Not modelled: the failed operations; setattr 1 (no flowop does them).
# Files opened: 3 in 3 directories (1 a directory); their sizes in bytes:
#   up to 1K: 1 to 4K: 1 to 16K: 1
# Opens: 3, in 3 groups (by their exact counts).
#
set $dir="$tmpdir/fbrun-model"
set mode quit alldone

# create1: 1 open that made the file (1 path in 1 directory);
#   the pass: 1 write of 8192 bytes
define fileset name=create1,path=$dir,entries=1,dirwidth=1,size=8192
# append2: 1 open that made the file (1 path in 1 directory);
#   the pass: 2 writes of 100 bytes, 2 fsyncs
define fileset name=append2,path=$dir,entries=1,dirwidth=1,size=200
# read3: 1 open that opened an existing file (1 path in 1 directory);
#   the pass: 2 reads of 4096 bytes, 1 fstat
define fileset name=read3,path=$dir,entries=1,dirwidth=1,size=3000,prealloc,readonly
# stat: 2 stats of 2 paths, files of their sizes
set $statsize = randvar(type=tabular, randtable={{50, 3000, 3000}, {50, 100000, 100000}})
define fileset name=stat,path=$dir,entries=2,dirwidth=1,size=$statsize,prealloc
# unlink: 1 unlink of 1 path: as many files to delete
define fileset name=unlink,path=$dir,entries=1,dirwidth=1,size=8192,prealloc
# rename: 1 rename of 1 path: as many files and free names
define fileset name=rename,path=$dir,entries=2,dirwidth=1,size=8192,prealloc=50
# mkdir: 1 mkdir of 1 path: as many leaf directories to make
define fileset name=mkdir,path=$dir,entries=0,dirwidth=1,leafdirs=1

define process name=model {
  thread name=create1 {
    flowop createfile name=create1.open,filesetname=create1,fd=1
    flowop write name=create1.write,fd=1,iosize=8192
    flowop closefile name=create1.close,fd=1
    flowop finishoncount name=create1.done,target=create1.close,value=1
  }
  thread name=append2 {
    flowop createfile name=append2.open,filesetname=append2,fd=1
    flowop appendfile name=append2.write,fd=1,iosize=100,iters=2
    flowop fsync name=append2.fsync,fd=1,iters=2
    flowop closefile name=append2.close,fd=1
    flowop finishoncount name=append2.done,target=append2.close,value=1
  }
  thread name=read3 {
    flowop openfile name=read3.open,filesetname=read3,fd=1
    flowop read name=read3.read,fd=1,iosize=4096,iters=2
    flowop statfile name=read3.fstat,fd=1
    flowop closefile name=read3.close,fd=1
    flowop finishoncount name=read3.done,target=read3.close,value=1
  }
  # what was done by path, each in one go
  thread name=paths {
    flowop statfile name=paths.stat,filesetname=stat,iters=2
    flowop deletefile name=paths.unlink,filesetname=unlink
    flowop renamefile name=paths.rename,filesetname=rename
    flowop makedir name=paths.mkdir,filesetname=mkdir
    flowop finishoncount name=paths.done,target=paths.mkdir,value=1
  }
}
run 86400

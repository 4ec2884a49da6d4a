# The thumper images workload as posted (seed 003), with a short run added.
set $dir=/export/filebench
set $nfiles=500000
set $meandirwidth=1000
set $filesize=128k
set $nthreads=200
set $readiosize=32k
set $ncreators=8

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=50,reuse

define process name=images,instances=1
{
  thread name=uploads,memsize=10m,instances=$ncreators
  {
    flowop deletefile name=deletefile1,filesetname=bigfileset

    flowop createfile name=createfile1,filesetname=bigfileset,fd=1
    flowop appendfilerand name=appendfilerand1,iosize=$filesize,fd=1
    flowop fsync name=fsync1,fd=1
    flowop closefile name=closefile1,fd=1

    flowop createfile name=createfile2,filesetname=bigfileset,fd=1
    flowop appendfilerand name=appendfilerand2,iosize=$filesize,fd=1
    flowop fsync name=fsync2,fd=1
    flowop closefile name=closefile2,fd=1

    flowop delay name=wait,value=2
  }
  thread name=webserver,memsize=10m,instances=$nthreads
  {
    flowop openfile name=openfile2,filesetname=bigfileset,opennext,fd=1
    flowop readwholefile name=readfile2,fd=1,iosize=$readiosize
    flowop closefile name=closefile2,fd=1

    flowop opslimit name=limit
  }
}

run 60

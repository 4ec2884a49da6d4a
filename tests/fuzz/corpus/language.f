# Every construct of the language once.
set $dir="$tmpdir/lang"
set $nfiles=1k
set $big=4g
set $flag=true
set $word=/mnt/data-1.x
set $quoted="dir is $dir, files ${nfiles}\n"
set $copy=$nfiles
set $sizes=randvar(type=gamma, mean=16k, gamma=1500, min=1k, round=512, randsrc=rand48, seed=7)
set $uni=randvar(type=uniform, mean=8k, min=2k)
set $tab=randvar(type=tabular, min=1k, randtable={{60, 1k, 4k}, {40, 8k, 16k}})
set $cv=cvar(type=cvar-gamma, parameters="mean:131072;gamma:1.5", min=1k, max=1m, round=4k)
set $nrm=cvar(type=cvar-normal, parameters="mean:65536;sigma:4096")
set mode quit alldone
set mode nousestats

define fileset name=size,path=$dir,size=$sizes,entries=$nfiles,dirwidth=20,dirgamma=0,leafdirs=10,prealloc=80,paralloc,reuse,trusttree
define file name=file,path=$word,size=1m,prealloc,readonly
define fileset name=logs,path=$dir,filesize=$cv,entries=10,dirwidth=5,writeonly

define flowop name=rmw, iters=2, $ios=4k
{
  flowop read name=r, filesetname=size, fd=3, iosize=$ios, random
  flowop write name=w, fd=3, iosize=$ios, random, dsync
}

define process name=run,instances=2,nice=5
{
  thread name=thread,memsize=1m,instances=$copy,ioprio=4
  {
    flowop openfile name=open1,filesetname=size,fd=1,opennext,directio,noreadahead
    flowop readwholefile name=readall,fd=1,iosize=$uni
    flowop writewholefile name=copy,filesetname=logs,fd=2,srcfd=1,iosize=64k
    flowop closefile name=close2,fd=2
    flowop closefile name=close1,fd=1
    flowop createfile name=create,filesetname=size,fd=4,indexed=$tab
    flowop appendfilerand name=append,fd=4,iosize=$sizes,iters=3
    flowop fsync name=sync,fd=4
    flowop closefile name=close4,fd=4
    flowop statfile name=stat,filesetname=size
    flowop deletefile name=delete,filesetname=size
    flowop makedir name=mk,filesetname=size
    flowop removedir name=rm,filesetname=size
    flowop listdir name=ls,filesetname=size
    flowop fsyncset name=syncall,filesetname=size
    flowop rmw name=rmw1, $ios=8k
    flowop rmw name=rmw2
    flowop read name=seq,filename=file,iosize=1m,workingset=512k
    flowop appendfile name=app,filename=logs,iosize=8k
    flowop aiowrite name=aw,filesetname=size,iosize=8k,random
    flowop aiowait name=await
    flowop delay name=nap,value=1
    flowop hog name=burn,value=1000
    flowop eventlimit name=ev
    flowop opslimit name=ops
    flowop iopslimit name=iops,target=seq
    flowop bwlimit name=bw,target=app
    flowop finishoncount name=enough,value=1000000,target=seq
    flowop finishonbytes name=bytes,value=1g
    flowop print name=say,value="hello $dir"
    flowop testrandvar name=trv,value=$sizes
  }
  thread name=sync
  {
    flowop block name=wait
    flowop wakeup name=poke,target=wait
    flowop semblock name=sem,value=2,highwater=10
    flowop sempost name=post,target=sem,value=1,blocking
  }
}

eventgen rate=100
enable lathist
echo "starting with $nfiles files in $dir (flag $flag, $word)"
echo $quoted
system "true $big"
debug 1
version
list filesets
list flowop
create files
sleep 1
psrun -10 $nfiles

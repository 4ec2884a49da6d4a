# Open loops: rate= on a thread, a process (shared by its threads) and a
# flowop, with arrivals= and backlog=; N/job is the whole job's rate
define fileset name=fs,path=/tmp,entries=10,size=4k,prealloc,dirwidth=10
define process name=shared,rate=400/job,arrivals=poisson,instances=2 {
  thread name=a,instances=2 {
    flowop read name=ra,filesetname=fs,iosize=4k
  }
  thread name=b {
    flowop write name=wb,filesetname=fs,iosize=4k
  }
}
define process name=each {
  thread name=reader,rate=2.5,backlog=0 {
    flowop openfile name=open1,filesetname=fs,fd=1
    flowop read name=read1,fd=1,iosize=4k
    flowop closefile name=close1,fd=1
  }
  thread name=writer {
    flowop write name=w1,filesetname=fs,iosize=4k,rate="1.5/job",backlog=8
    flowop delay name=d1,value=1
  }
}
run 10

# rate= takes arrivals per second, greater than 0: N or N/job
define fileset name=fs,path=/tmp,entries=10,size=4k,prealloc,dirwidth=10
define process name=p {
  thread name=t1,rate=0 {
    flowop read name=r1,filesetname=fs,iosize=4k
  }
  thread name=t2,rate=-5 {
    flowop read name=r2,filesetname=fs,iosize=4k
  }
  thread name=t3,rate=fast {
    flowop read name=r3,filesetname=fs,iosize=4k
  }
  thread name=t4,rate=100/jbo {
    flowop read name=r4,filesetname=fs,iosize=4k
  }
  thread name=t5,rate=20000000 {
    flowop read name=r5,filesetname=fs,iosize=4k
  }
  thread name=t6,rate {
    flowop read name=r6,filesetname=fs,iosize=4k
  }
  thread name=t7,rate=10,arrivals=bursty,backlog=-1 {
    flowop read name=r7,filesetname=fs,iosize=4k
  }
}
define process name=q {
  thread name=t8,rate=0.0000001,backlog=200000000 {
    flowop read name=r8,filesetname=fs,iosize=4k
  }
}
run 1

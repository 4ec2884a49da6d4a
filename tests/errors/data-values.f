# compress= out of range, both data= and compress=, data=compress,
# a random compress=, and a pattern that is not a word
set $rv = randvar(type=uniform, min=10, mean=50)
define fileset name=a,path=/tmp/fbrun-never,entries=10,dirwidth=5,compress=100
define fileset name=b,path=/tmp/fbrun-never,entries=10,dirwidth=5,data=zeros,compress=50
define process name=p { thread name=t {
  flowop write name=w1,filesetname=a,iosize=4k,data=compress
  flowop write name=w2,filesetname=a,iosize=4k,compress=$rv
  flowop write name=w3,filesetname=a,iosize=4k,data=7
  flowop write name=w4,filesetname=a,iosize=4k,data=rnd } }

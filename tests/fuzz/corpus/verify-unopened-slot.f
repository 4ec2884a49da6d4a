#,dirwidth=5,preallver,entries=10,dirwidth=5,prealloc
define process name=p { thread name=t {
  flowop openfile name=o,filesetname=v,fd=1
  flowop truncatefile name=cut,fd=2,iosize=4k
  flowop rewrite name=rw,fd=1,iosize=4k
  flowop closefile name=c,fd=1
  flowop renamefile name=mv,filesetname=v
  flowop linkfile name=ln,filesetname=v
  flowop writebytes name=wb,filesetname=v,iosize=10
  flowop readbytes name=rb,filesetname=v,iosize=10
  flowop seekrw name=sk,filesetname=v,iosize=41k,value=10
  flowop createnext name=cn,filesetname=v
  flowop statnext name=sn,filesetname=v
  flowop deletenext name=dn,filesetname=v
  flowop truncatefile name=fine,filesetname=plain,iosize=4k } }

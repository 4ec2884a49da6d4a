define process name=p { thread name=t { flowop openfile name=o,filesetname=x,fd=1
flowop closefile name=c,fd=1 } }
run 1

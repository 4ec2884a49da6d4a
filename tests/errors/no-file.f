define process name=p { thread name=t { flowop read name=r,iosize=4k } }

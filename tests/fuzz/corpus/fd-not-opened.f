define process name=p { thread name=t { flowop fsync name=s,fd=3 } }

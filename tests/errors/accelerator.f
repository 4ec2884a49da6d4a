# an accelerator is busy only while it computes; its threshold is a percent
define process name=p { thread name=idle,accelerator=90 {
  flowop queuetake name=batch,depth=4 }
  thread name=zero,accelerator=0 {
  flowop compute name=c0,value=1000 }
  thread name=over,accelerator=101 {
  flowop compute name=c1,value=1000 } }
run 1

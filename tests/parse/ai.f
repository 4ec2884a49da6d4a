# a data loader feeding emulated accelerators: queues, compute time,
# accelerator thresholds
set $accelerators=2
define flowop name=sample,iters=4 {
  flowop compute name=decode,value=1000
  flowop queueput name=put,target=batch,value=1 }
define process name=accel,instances=$accelerators {
  thread name=loader,instances=2 {
    flowop sample name=s }
  thread name=gpu,accelerator=90 {
    flowop queuetake name=batch,value=4,depth=16
    flowop compute name=step,value=50000 } }
run 10

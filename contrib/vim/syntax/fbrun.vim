" SPDX-License-Identifier: Apache-2.0
" Copyright 2026 The fbrun authors
" fbrun: filebench workload scripts (.f) as fbrun reads them
" (doc/language.md).  The flowop and attribute names are those of
" `fbrun --list-flowops` and `fbrun --list-attributes`; tests/vim.sh
" checks that they still match.
if exists('b:current_syntax')
  finish
endif

syn case match

" the commands (grammar/keywords.h); flowop is matched with its name below
syn keyword fbrunCommand create debug define domultisync echo enable
syn keyword fbrunCommand eventgen list psrun quit run set sleep system
syn keyword fbrunCommand thread version
" filebench 1.4's, taken too
syn keyword fbrunCommand help log usage vars
syn keyword fbrunEntity file fileset filesets process processes files trace
syn keyword fbrunFunction randvar
" cvar, but not the cvar of cvar-gamma
syn match fbrunFunction '\<cvar\>-\@!'
syn keyword fbrunConstant mode timeout alldone firstdone nousestats lathist
syn keyword fbrunConstant true false uniform gamma tabular rand48 urandom
syn keyword fbrunConstant zeros bonnie
syn match fbrunConstant '\<cvar-\(gamma\|normal\|uniform\|exponential\|erlang\|lognormal\|triangular\|weibull\)\>'

syn keyword fbrunAttribute accelerator arrivals backlog blocking cached calls
syn keyword fbrunAttribute compress data depth
syn keyword fbrunAttribute delete dirdepth dirdepthrv directio dirgamma dirs
syn keyword fbrunAttribute dirwidth dsync
syn keyword fbrunAttribute entries fd filename filesetname filesize format
syn keyword fbrunAttribute filesizegamma fsync gamma highwater indexed
syn keyword fbrunAttribute instances iodepth ioprio iosize iters leafdirs max
syn keyword fbrunAttribute mean memsize min name nice noreadahead opennext
syn keyword fbrunAttribute pace paralloc parameters path prealloc random randsrc
syn keyword fbrunAttribute randtable rankshift rate readonly removeafter reuse rotatefd
syn keyword fbrunAttribute round seed shared size srcfd startrecord streams stride
syn keyword fbrunAttribute target trace trusttree type useism value verify
syn keyword fbrunAttribute workingset writeonly

" "flowop NAME": a flowop's name only there (read, sync, block are
" ordinary words elsewhere)
syn match fbrunFlowopUse '\<flowop\s\+\h\w*' contains=fbrunFlowopWord,fbrunAttribute,fbrunFlowop
syn keyword fbrunFlowopWord contained flowop
syn keyword fbrunFlowop contained read write appendfile appendfilerand
syn keyword fbrunFlowop contained readwholefile writewholefile mmapread
syn keyword fbrunFlowop contained mmapwrite createfile openfile closefile
syn keyword fbrunFlowop contained deletefile statfile truncatefile
syn keyword fbrunFlowop contained fallocatefile setxattr getxattr renamefile
syn keyword fbrunFlowop contained linkfile symlinkfile fsync fsyncset makedir
syn keyword fbrunFlowop contained removedir listdir writebytes readbytes
syn keyword fbrunFlowop contained rewrite seekrw sync createnext statnext
syn keyword fbrunFlowop contained deletenext delay hog eventlimit opslimit
syn keyword fbrunFlowop contained iopslimit bwlimit finishoncount
syn keyword fbrunFlowop contained finishonbytes block wakeup semblock sempost
syn keyword fbrunFlowop contained aiowrite aioread aiowait print testrandvar
syn keyword fbrunFlowop contained replay queuetake queueput compute

syn match fbrunVariable '\$\h\w*\|\${\h\w*}\|\$(\h\w*)'
" integers with a size suffix (k, m, g, t), decimals
syn match fbrunNumber '\<[-+]\=\d\+[kKmMgGtT]\=\>'
syn match fbrunNumber '\<\d\+\.\d\+\>'
syn match fbrunEscape contained '\\.'
syn region fbrunString start=+"+ skip=+\\.+ end=+"+ contains=fbrunVariable,fbrunEscape
syn keyword fbrunTodo contained TODO FIXME XXX
syn match fbrunComment '#.*$' contains=fbrunTodo,@Spell

hi def link fbrunCommand Statement
hi def link fbrunFlowopWord Statement
hi def link fbrunEntity Type
hi def link fbrunFunction Function
hi def link fbrunConstant Constant
hi def link fbrunAttribute Identifier
hi def link fbrunFlowop Function
hi def link fbrunVariable PreProc
hi def link fbrunNumber Number
hi def link fbrunEscape SpecialChar
hi def link fbrunString String
hi def link fbrunTodo Todo
hi def link fbrunComment Comment

let b:current_syntax = 'fbrun'

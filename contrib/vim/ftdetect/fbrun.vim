" SPDX-License-Identifier: Apache-2.0
" Copyright 2026 The fbrun authors
" fbrun: filebench workload scripts share the .f suffix with fixed-form
" Fortran.  A file is taken as a workload when its first line that is not
" blank nor a # comment starts a filebench command; anything else (a
" Fortran comment or statement) stays Fortran.
function! s:FbrunDetect() abort
  for l:line in getline(1, 200)
    if l:line =~# '^\s*\(#.*\)\=$'
      continue
    endif
    if l:line =~# '^\s*\(define\s\+\(file\|fileset\|filesets\|process\|processes\|flowop\|randvar\)\>\|set\s\+\(\$\|mode\s\)\|run\s*\(\d\+\|\$\h\w*\)\=\s*\(#.*\)\=$\|psrun\>\|create\s\+files\>\|enable\s\+lathist\>\|eventgen\s\+rate\>\|echo\s\+"\|debug\s\+\d\|sleep\s\+\d\|quit\s*$\)'
      set filetype=fbrun
    endif
    return
  endfor
endfunction

autocmd BufNewFile,BufRead *.f call s:FbrunDetect()

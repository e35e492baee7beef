# The NVIDIA kernel objects' compiler launcher (hsm_nvidia_kernel_flags): runs one nvcc command
# with ptxas -v added and writes ptxas's report beside the object, as <object>.ptxas, one
# "Compiling entry function 'k' for 'sm_NN'" block per kernel and SASS target.
#   cmake -P ptxas-report.cmake -- <nvcc command ... -o <object> ...>
# Why here and not a second compile: arch.reader.library_ptxas.nvidia checks the readers against
# ptxas's word on the library's own kernels; compiling the kernel sources again for it doubled
# every NVIDIA build's kernel time. -v changes no code ptxas emits, only what it prints.
# The report goes to the file; any other line nvcc prints (a warning, an error) still reaches the
# build's output, and a failed command fails the build step with everything it printed.
set(cmd)
set(seen FALSE)
set(obj)
set(next_is_obj FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  set(a "${CMAKE_ARGV${i}}")
  if(seen)
    list(APPEND cmd "${a}")
    if(next_is_obj)
      set(obj "${a}")
      set(next_is_obj FALSE)
    elseif(a STREQUAL "-o")
      set(next_is_obj TRUE)
    endif()
  elseif(a STREQUAL "--")
    set(seen TRUE)
  endif()
endforeach()
if(NOT cmd OR NOT obj)
  message(FATAL_ERROR "ptxas-report.cmake: expected -- <compiler command with -o <object>>")
endif()
file(REMOVE "${obj}.ptxas")
execute_process(COMMAND ${cmd} --ptxas-options=-v OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out}${err}")
endif()
file(WRITE "${obj}.ptxas" "${err}")
# What is not ptxas's report: printed as the compiler printed it.
# A kernel's report is "ptxas info" lines and its frame line ("    N bytes stack frame, ...").
string(REGEX REPLACE "ptxas info[^\n]*\n" "" rest "${err}")
string(REGEX REPLACE " *[0-9]+ bytes stack frame[^\n]*\n" "" rest "${rest}")
string(STRIP "${out}${rest}" rest)
if(rest)
  message(NOTICE "${rest}")
endif()

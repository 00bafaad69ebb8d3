# Judgement (issue 17): theoretical ceilings computed from the topology (PCIe links up to the root
# port, NIC ports, a disk's controller and SATA link); later the layered expectations and the
# verdicts that compare figures to them.
target_sources(xferbench_lib PRIVATE
  judge/ceiling.cpp judge/pcie_rate.cpp judge/pcie_path.cpp judge/nic_ceiling.cpp judge/storage_ceiling.cpp)
